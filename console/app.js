// The operations console: polls the gateway's /api/v1/console endpoints every 5 s with the
// operator key from sessionStorage (sent as X-Api-Key, never in a URL) and renders plain tables,
// inline-SVG charts and confirmed actions. Everything is written with textContent: no HTML from data.
import { lineChart } from './charts.js';
import { confirmAction, showDetails } from './dialogs.js';

const KEY = 'clinigate.console.apiKey';
const POLL_MS = 5000;
const $ = (id) => document.getElementById(id);
let timer,
  paused = false,
  loading = false;

class Unauthorized extends Error {}

async function api(path, options = {}) {
  const key = sessionStorage.getItem(KEY);
  const res = await fetch(path, {
    method: options.method ?? 'GET',
    headers: { 'X-Api-Key': key ?? '', accept: 'application/json' },
    cache: 'no-store',
    credentials: 'omit',
  });
  if (res.status === 401) throw new Unauthorized('The API key was refused');
  // A voice platform key is valid but reaches calls and centers only: the console needs an operator key.
  if (res.status === 403) throw new Unauthorized('That key is not an operator key');
  const body = res.status === 204 ? null : await res.json().catch(() => null);
  if (!res.ok) throw new Error(body?.details ?? `HTTP ${res.status}`);
  return body;
}

// ---- small DOM helpers ----
function td(text, cls) {
  const cell = document.createElement('td');
  if (cls) cell.className = cls;
  if (text instanceof Node) cell.appendChild(text);
  else cell.textContent = text ?? '—';
  return cell;
}
function badge(status) {
  const span = document.createElement('span');
  span.className = `badge s-${status}`;
  span.textContent = status;
  return span;
}
function button(label, onClick, { cls = 'small', name } = {}) {
  const b = document.createElement('button');
  b.type = 'button';
  b.className = cls;
  b.textContent = label;
  if (name) b.setAttribute('aria-label', name);
  b.addEventListener('click', onClick);
  return b;
}
function fill(tableId, rows, render, emptyText) {
  const tbody = $(tableId).tBodies[0];
  const cols = $(tableId).tHead.rows[0].cells.length;
  if (rows.length === 0) {
    const tr = document.createElement('tr');
    tr.className = 'empty';
    const cell = td(emptyText);
    cell.colSpan = cols;
    tr.appendChild(cell);
    tbody.replaceChildren(tr);
    return;
  }
  tbody.replaceChildren(
    ...rows.map((r) => {
      const tr = document.createElement('tr');
      const { id, cells } = render(r);
      if (id) tr.dataset.id = id;
      tr.append(...cells);
      return tr;
    }),
  );
}
const short = (id) => (id ? String(id).slice(0, 8) : '—');
const idCell = (id) => {
  const c = td(short(id), 'id');
  if (id) c.title = id;
  return c;
};
const time = (iso) => (iso ? new Date(iso).toLocaleTimeString() : '—');
function duration(msValue) {
  if (msValue === null || msValue === undefined) return '—';
  const n = Number(msValue);
  if (n < 1000) return `${n} ms`;
  if (n < 120_000) return `${(n / 1000).toFixed(1)} s`;
  return `${Math.round(n / 60_000)} min`;
}
const seconds = (s) => (s === null || s === undefined ? '—' : duration(Number(s) * 1000));

function toast(text, bad = false) {
  const t = $('toast');
  t.textContent = text;
  t.className = `toast show${bad ? ' bad' : ''}`;
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => {
    t.className = 'toast';
  }, 5000);
}

// ---- actions: each confirmed first; the server writes the audit row ----
async function act({ title, text, ok, path, done }) {
  if (!(await confirmAction({ title, text, ok }))) return;
  try {
    const body = await api(path, { method: 'POST' });
    toast(done(body));
    await refresh();
  } catch (err) {
    if (err instanceof Unauthorized) return signOut(err.message);
    toast(`${title} failed: ${err.message}`, true);
  }
}
async function viewDetails(kind, id) {
  const ok = await confirmAction({
    title: `Show ${kind} ${short(id)}?`,
    text: 'The details may contain patient data. Viewing them is recorded in the audit log with your key.',
    ok: 'Show details',
  });
  if (!ok) return;
  try {
    showDetails(`${kind} ${id}`, await api(`/api/v1/console/${kind === 'Run' ? 'runs' : 'pipelines'}/${encodeURIComponent(id)}`));
  } catch (err) {
    if (err instanceof Unauthorized) return signOut(err.message);
    toast(`Details failed: ${err.message}`, true);
  }
}

// ---- renderers ----
function renderOverview(o) {
  $('overall').className = `badge s-${o.status}`;
  $('overall').textContent = `Gateway ${o.status}`;
  $('checks').replaceChildren(
    ...Object.entries(o.checks).map(([name, c]) => {
      const li = document.createElement('li');
      const extra =
        c.latency_ms !== undefined ? ` ${c.latency_ms} ms` : c.name ? ` ${c.name}` : c.depth !== undefined ? ` ${c.depth} waiting` : '';
      li.append(`${name}: `, badge(c.status), extra);
      return li;
    }),
  );
  fill(
    'queues',
    o.queues,
    (q) => ({
      id: q.queue,
      cells: [
        td(q.queue),
        td(String(q.waiting), 'num'),
        td(String(q.scheduled), 'num'),
        td(String(q.active), 'num'),
        td(String(q.failed_last_hour), 'num'),
        td(seconds(q.oldest_waiting_seconds), 'num'),
      ],
    }),
    'No queues',
  );
}

function renderSeries(ts) {
  const p = ts.points;
  const col = (k) => p.map((x) => x[k]);
  lineChart($('chart-activity'), 'Requests per minute', [
    { label: 'Runs created', color: '#0b5cad', values: col('runs_created') },
    { label: 'Events received', color: '#1a7f37', values: col('events_received') },
    { label: 'Deliveries made', color: '#8250df', values: col('deliveries_delivered') },
  ]);
  lineChart($('chart-failures'), 'Errors per minute', [
    { label: 'Runs failed', color: '#c62828', values: col('runs_failed') },
    { label: 'Events failed', color: '#9a6700', values: col('events_failed') },
    { label: 'Deliveries dead', color: '#6e7781', values: col('deliveries_dead') },
  ]);
  lineChart($('chart-queue'), 'Jobs waiting', [{ label: 'Waiting jobs', color: '#0b5cad', values: col('queue_waiting') }]);
}

function renderDead(rows) {
  $('dead-count').textContent = `(${rows.length})`;
  fill(
    'dead-deliveries',
    rows,
    (d) => ({
      id: d.id,
      cells: [
        idCell(d.id),
        td(d.event_type),
        td(d.endpoint_url),
        td(String(d.attempt_count), 'num'),
        td(d.last_error ?? (d.last_status_code ? `HTTP ${d.last_status_code}` : null)),
        td(time(d.died_at)),
        td(
          d.endpoint_status === 'active'
            ? button(
                'Replay',
                () =>
                  act({
                    title: 'Replay delivery',
                    ok: 'Replay',
                    text: `Send ${d.event_type} (delivery ${d.id}) to ${d.endpoint_url} again now, with the same webhook-id?`,
                    path: `/api/v1/webhook-deliveries/${d.id}/replay`,
                    done: () => `Delivery ${short(d.id)} queued again`,
                  }),
                { name: `Replay delivery ${d.id}` },
              )
            : `endpoint ${d.endpoint_status}`,
          'actions',
        ),
      ],
    }),
    'No dead deliveries',
  );
}

/** ok, failing (N attempts in a row failed) or disabled, and since when (DESIGN "Delivery operations"). */
function healthCell(e) {
  const cell = document.createElement('span');
  cell.append(badge(e.health));
  if (e.health !== 'ok') cell.append(` since ${time(e.health_since)}`);
  if (e.health === 'failing') cell.append(`, ${e.consecutive_failures} failed in a row`);
  return cell;
}

function renderEndpoints(rows) {
  fill(
    'endpoints',
    rows,
    (e) => {
      const actions = document.createElement('span');
      if (e.status === 'disabled') {
        actions.append(
          button(
            'Enable',
            () =>
              act({
                title: 'Enable endpoint',
                ok: 'Enable',
                text: `Start delivering new events to ${e.url} again? (Disabled: ${e.disabled_reason ?? 'no reason recorded'})`,
                path: `/api/v1/webhook-endpoints/${e.id}/enable`,
                done: () => `Endpoint ${short(e.id)} enabled`,
              }),
            { name: `Enable endpoint ${e.url}` },
          ),
        );
      }
      if (e.dead > 0 && e.status === 'active') {
        actions.append(
          button(
            `Replay ${e.dead} dead`,
            () =>
              act({
                title: 'Replay dead deliveries',
                ok: `Replay ${e.dead}`,
                text: `Send all ${e.dead} dead deliveries of ${e.url} again now?`,
                path: `/api/v1/console/endpoints/${e.id}/replay-dead`,
                done: (b) => `${b.replayed} deliveries queued again`,
              }),
            { name: `Replay dead deliveries of ${e.url}` },
          ),
        );
      }
      const state = document.createElement('span');
      state.append(badge(e.status));
      if (e.disabled_reason) state.append(` ${e.disabled_reason}`);
      return {
        id: e.id,
        cells: [
          td(e.url),
          td(state),
          td(healthCell(e)),
          td(e.success_rate === null ? '—' : `${e.success_rate}%`, 'num'),
          td(String(e.delivered), 'num'),
          td(String(e.dead), 'num'),
          td(String(e.pending), 'num'),
          td(e.last_error ? `${e.last_error} (${time(e.last_error_at)})` : null),
          td(actions, 'actions'),
        ],
      };
    },
    'No endpoints',
  );
}

function renderInbound(s) {
  fill(
    'inbound',
    s.by_type,
    (r) => ({ cells: [td(r.source), td(r.type), td(badge(r.status)), td(String(r.last_hour), 'num'), td(String(r.last_day), 'num')] }),
    'No inbound events in the last day',
  );
}

function renderCalls(rows) {
  fill(
    'calls',
    rows,
    (r) => ({
      id: r.status,
      cells: [td(badge(r.status)), td(String(r.total), 'num'), td(String(r.last_day), 'num'), td(seconds(r.oldest_seconds), 'num')],
    }),
    'No calls',
  );
}

function renderPipelines(rows) {
  fill(
    'pipelines',
    rows,
    (e) => {
      const actions = document.createElement('span');
      actions.append(button('Details', () => viewDetails('Pipeline', e.id), { name: `Details of event ${e.event_id}` }));
      if (e.status === 'failed') {
        actions.append(
          button(
            'Retry',
            () =>
              act({
                title: 'Retry pipeline',
                ok: 'Retry',
                text: `Process ${e.source} event ${e.event_id} (${e.type}) again? Steps already done are skipped.`,
                path: `/api/v1/webhooks/events/${encodeURIComponent(e.event_id)}/retry?source=${e.source}`,
                done: () => `Event ${e.event_id} queued again`,
              }),
            { name: `Retry event ${e.event_id}` },
          ),
        );
      }
      const steps = Object.keys(e.pipeline ?? {})
        .map((k) => k.replace(/_id$/, ''))
        .join(', ');
      return {
        id: e.id,
        cells: [
          td(e.event_id, 'id'),
          td(`${e.source} ${e.type}`),
          td(badge(e.status)),
          td(steps || '—'),
          td(String(e.attempts), 'num'),
          td(duration(e.duration_ms), 'num'),
          td(time(e.received_at)),
          td(actions, 'actions'),
        ],
      };
    },
    'No inbound events',
  );
}

function renderNotes(n) {
  fill(
    'drafts-waiting',
    n.drafts_waiting,
    (g) => ({ id: g.group_id, cells: [td(g.group_id, 'id'), td(String(g.drafts), 'num'), td(time(g.oldest_draft_at))] }),
    'No draft waiting for signature',
  );
  fill(
    'notes',
    n.recent,
    (r) => ({
      id: r.id,
      cells: [
        td(r.id, 'id'),
        td(badge(r.status)),
        td(String(r.version), 'num'),
        td(r.signed_by ?? '—'),
        td(r.signed_at ? time(r.signed_at) : '—'),
      ],
    }),
    'No notes',
  );
}

function renderRuns(rows) {
  fill(
    'runs',
    rows,
    (r) => {
      const actions = document.createElement('span');
      actions.append(button('Details', () => viewDetails('Run', r.run_id), { name: `Details of run ${r.run_id}` }));
      if (r.status === 'pending' || r.status === 'running') {
        actions.append(
          button(
            'Cancel',
            () =>
              act({
                title: 'Cancel run',
                ok: 'Cancel run',
                text: `Cancel ${r.kind} run ${r.run_id}? It ends failed with error Cancelled.`,
                path: `/api/v1/console/runs/${r.run_id}/cancel`,
                done: () => `Run ${short(r.run_id)} cancelled`,
              }),
            { name: `Cancel run ${r.run_id}` },
          ),
        );
      }
      return {
        id: r.run_id,
        cells: [
          idCell(r.run_id),
          td(r.kind),
          td(badge(r.status)),
          td(r.error),
          td(duration(r.wait_ms), 'num'),
          td(duration(r.duration_ms), 'num'),
          td(time(r.created_at)),
          td(actions, 'actions'),
        ],
      };
    },
    'No runs',
  );
}

function renderCodifications(rows) {
  fill(
    'codifications',
    rows,
    (c) => ({
      id: c.run_id,
      cells: [
        idCell(c.run_id),
        td(c.model),
        td(badge(c.status)),
        td(c.error),
        td(c.final_codes === null ? '—' : String(c.final_codes), 'num'),
        td(c.engine_ms === null ? '—' : `${c.engine_ms} ms`, 'num'),
        td(duration(c.duration_ms), 'num'),
        td(time(c.created_at)),
      ],
    }),
    'No codifications',
  );
}

// ---- polling ----
async function refresh() {
  if (loading) return;
  loading = true;
  try {
    const base = '/api/v1/console';
    const [overview, series, dead, endpoints, inbound, calls, pipelines, runs, codifications, notes] = await Promise.all([
      api(`${base}/overview`),
      api(`${base}/timeseries`),
      api(`${base}/deliveries/dead`),
      api(`${base}/endpoints`),
      api(`${base}/inbound`),
      api(`${base}/calls`),
      api(`${base}/pipelines?limit=25`),
      api(`${base}/runs?limit=25`),
      api(`${base}/codifications?limit=25`),
      api(`${base}/notes?limit=25`),
    ]);
    renderOverview(overview);
    renderSeries(series);
    renderDead(dead);
    renderEndpoints(endpoints);
    renderInbound(inbound);
    renderCalls(calls);
    renderPipelines(pipelines);
    renderRuns(runs);
    renderCodifications(codifications);
    renderNotes(notes);
    $('updated').textContent = `Updated ${new Date().toLocaleTimeString()}`;
    document.body.dataset.loaded = String(Date.now());
  } catch (err) {
    if (err instanceof Unauthorized) return signOut(err.message);
    $('overall').className = 'badge s-down';
    $('overall').textContent = 'Gateway unreachable';
    $('updated').textContent = `Update failed: ${err.message}`;
  } finally {
    loading = false;
  }
}

function schedule() {
  clearTimeout(timer);
  if (paused || document.hidden || !sessionStorage.getItem(KEY)) return;
  timer = setTimeout(async () => {
    await refresh();
    schedule();
  }, POLL_MS);
}

function showConsole(signedIn) {
  $('signin').hidden = signedIn;
  $('console').hidden = !signedIn;
  $('top-status').hidden = !signedIn;
}

function signOut(message = '') {
  sessionStorage.removeItem(KEY);
  clearTimeout(timer);
  showConsole(false);
  $('signin-error').textContent = message;
  $('api-key').value = '';
  $('api-key').focus();
}

async function signIn(key) {
  sessionStorage.setItem(KEY, key);
  try {
    await api('/api/v1/console/overview');
  } catch (err) {
    return signOut(err instanceof Unauthorized ? `That key was refused: ${err.message.toLowerCase()}.` : `Sign-in failed: ${err.message}`);
  }
  $('signin-error').textContent = '';
  showConsole(true);
  $('main').focus();
  await refresh();
  schedule();
}

document.addEventListener('DOMContentLoaded', () => {
  $('signin-form').addEventListener('submit', (e) => {
    e.preventDefault();
    const key = $('api-key').value.trim();
    $('api-key').value = '';
    if (key) void signIn(key);
  });
  $('signout').addEventListener('click', () => signOut('Signed out.'));
  $('pause').addEventListener('click', () => {
    paused = !paused;
    $('pause').setAttribute('aria-pressed', String(paused));
    $('pause').textContent = paused ? 'Resume updates' : 'Pause updates';
    if (!paused) void refresh();
    schedule();
  });
  document.addEventListener('visibilitychange', () => {
    if (!document.hidden) void refresh();
    schedule();
  });
  const key = sessionStorage.getItem(KEY);
  if (key) void signIn(key);
  else showConsole(false);
});
