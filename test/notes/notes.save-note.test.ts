import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTransaction } from '../../src/db/transaction.js';
import { saveNewNote, updateNoteContent } from '../../src/modules/notes/save-note.js';
import { listNoteVersions } from '../../src/modules/notes/notes.repo.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

const soap = { subjective: 's', objective: 'o', assessment: 'a', plan: 'p' };

describe('note use cases called inside a caller transaction (extraction worker)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  // SQL: the outbox has no read API (its events are only seen delivered, by an endpoint's receiver).
  const events = async (noteId: string) =>
    (await t.deps.pool.query(`SELECT type, data FROM outbox WHERE data->>'note_id' = $1 ORDER BY created_at`, [noteId])).rows;

  it('creates version 1 with a note.created event, idempotently when the id is given', async () => {
    const id = randomUUID();
    const groupId = `group-${randomUUID()}`;
    const input = { id, groupId, userId: 'u1', doctorId: 'dr-1', template: 'SOAP' as const, content: soap, reportRunIds: [] };
    const first = await withTransaction(t.deps.pool, (tx) => saveNewNote(tx, input));
    expect(first).toMatchObject({
      id,
      group_id: groupId,
      user_id: 'u1',
      template: 'SOAP',
      ai_generated_content: soap,
      version: 1,
      report_run_id: [],
      feedback: null,
    });
    expect(first).not.toHaveProperty('doctor_id');
    const again = await withTransaction(t.deps.pool, (tx) => saveNewNote(tx, { ...input, content: { ...soap, plan: 'other' } }));
    expect(again).toEqual(first);
    expect(await listNoteVersions(t.deps.pool, id)).toHaveLength(1);
    expect(await events(id)).toEqual([{ type: 'note.created', data: { note_id: id, template: 'SOAP', version: 1, group_id: groupId } }]);
  });

  it('rolls back with the caller transaction', async () => {
    const id = randomUUID();
    await expect(
      withTransaction(t.deps.pool, async (tx) => {
        await saveNewNote(tx, { id, groupId: 'g', userId: 'u', template: 'SOAP', content: soap });
        throw new Error('worker failed later');
      }),
    ).rejects.toThrow('worker failed later');
    expect(await listNoteVersions(t.deps.pool, id)).toHaveLength(0);
    expect(await events(id)).toEqual([]);
  });

  it('updates content as a new version with note.updated, appends the run once, undefined for another group', async () => {
    const groupId = `group-${randomUUID()}`;
    const note = await withTransaction(t.deps.pool, (tx) => saveNewNote(tx, { groupId, userId: 'u1', template: 'SOAP', content: soap }));
    const runId = randomUUID();
    const dap = { data: 'd', assessment: 'a', plan: 'p' };
    const updated = await withTransaction(t.deps.pool, (tx) =>
      updateNoteContent(tx, {
        noteId: note.id,
        groupId,
        userId: 'u2',
        doctorId: 'dr-2',
        template: 'DAP',
        content: dap,
        addReportRunId: runId,
      }),
    );
    expect(updated).toMatchObject({ version: 2, template: 'DAP', ai_generated_content: dap, report_run_id: [runId] });
    const same = await withTransaction(t.deps.pool, (tx) =>
      updateNoteContent(tx, { noteId: note.id, groupId, userId: 'u2', addReportRunId: runId }),
    );
    expect(same?.version).toBe(2);
    const versions = await listNoteVersions(t.deps.pool, note.id);
    expect(versions.map((v) => [v.version, v.changed_fields, v.user_id, v.doctor_id])).toEqual([
      [1, ['template', 'ai_generated_content'], 'u1', null],
      [2, ['template', 'ai_generated_content', 'report_run_id'], 'u2', 'dr-2'],
    ]);
    expect((await events(note.id)).map((e) => e.type)).toEqual(['note.created', 'note.updated']);
    const other = await withTransaction(t.deps.pool, (tx) =>
      updateNoteContent(tx, { noteId: note.id, groupId: 'other', userId: 'u', content: soap }),
    );
    expect(other).toBeUndefined();
  });

  it('refuses content that does not fit the template', async () => {
    await expect(
      withTransaction(t.deps.pool, (tx) => saveNewNote(tx, { groupId: 'g', userId: 'u', template: 'SOAP', content: { data: 'x' } })),
    ).rejects.toMatchObject({ status: 400 });
  });
});
