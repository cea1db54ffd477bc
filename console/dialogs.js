// Modal dialogs on the native <dialog>: showModal() makes the page behind inert and Escape
// closes it; Tab is kept inside, and focus returns to the button that opened it.

const FOCUSABLE = 'button, [href], input, select, textarea, [tabindex]:not([tabindex="-1"])';

function trapFocus(dialog) {
  dialog.addEventListener('keydown', (e) => {
    if (e.key !== 'Tab') return;
    const items = [...dialog.querySelectorAll(FOCUSABLE)].filter((n) => !n.disabled);
    if (items.length === 0) return;
    const first = items[0],
      last = items.at(-1);
    if (e.shiftKey && document.activeElement === first) {
      last.focus();
      e.preventDefault();
    } else if (!e.shiftKey && document.activeElement === last) {
      first.focus();
      e.preventDefault();
    }
  });
}

let confirmReady = false;

/** Asks before an action; resolves true only when the operator presses the confirm button. */
export function confirmAction({ title, text, ok }) {
  const dialog = document.getElementById('confirm');
  if (!confirmReady) {
    trapFocus(dialog);
    confirmReady = true;
  }
  const opener = document.activeElement;
  document.getElementById('confirm-title').textContent = title;
  document.getElementById('confirm-text').textContent = text;
  document.getElementById('confirm-ok').textContent = ok;
  dialog.returnValue = '';
  return new Promise((resolve) => {
    dialog.addEventListener(
      'close',
      () => {
        opener?.focus?.();
        resolve(dialog.returnValue === 'ok');
      },
      { once: true },
    );
    dialog.showModal();
    dialog.querySelector('button[value="cancel"]').focus();
  });
}

let detailsReady = false;

/** Shows one item's JSON; the caller fetched it on the operator's click. */
export function showDetails(title, value) {
  const dialog = document.getElementById('details');
  if (!detailsReady) {
    trapFocus(dialog);
    document.getElementById('details-close').addEventListener('click', () => dialog.close());
    detailsReady = true;
  }
  const opener = document.activeElement;
  dialog.addEventListener('close', () => opener?.focus?.(), { once: true });
  document.getElementById('details-title').textContent = title;
  document.getElementById('details-body').textContent = JSON.stringify(value, null, 2);
  dialog.showModal();
  document.getElementById('details-close').focus();
}
