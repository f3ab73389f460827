const form = document.getElementById('donate');
const status = document.getElementById('status');
const button = form.querySelector('button[type="submit"]');
const params = new URLSearchParams(window.location.search);
const fundraiserId = params.get('fundraiserId');
// Where the product's API answers: the page says so when it is not this site.
const apiBase = params.get('api') || window.location.origin;
// The page that embeds the widget; a widget only ever reports to the page it sits in.
const parentOrigin = document.referrer ? new URL(document.referrer).origin : window.location.origin;

/** A name for this donation, which the page reports it under and the processor confirms it with. */
function newReference() {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  // Outside a secure context (a phone on a LAN address) randomUUID is missing.
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/**
 * Asks the product's demo processor for the donation. Like a real processor it "takes" the money
 * (nothing is charged) and confirms the donation to the product with a signed webhook; only then
 * does the widget tell the page, as a real widget reports a completed payment.
 */
async function charge(amount, reference) {
  const response = await fetch(new URL('/api/demo-processor/donations', apiBase), {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ fundraiserId, amount, reference }),
  });
  if (response.ok) return;
  let message = `The demo processor answered ${response.status}.`;
  try {
    message = (await response.json()).error || message;
  } catch {
    // Not JSON: keep the status.
  }
  throw new Error(message);
}

form.addEventListener('submit', async (event) => {
  event.preventDefault();
  const custom = form.elements.custom.value.trim();
  const amount = Number(custom || form.elements.amount.value);
  if (!(amount > 0)) {
    status.textContent = 'Please enter an amount above $0.';
    return;
  }
  const reference = newReference();
  button.disabled = true;
  status.textContent = 'Processing the demo donation...';
  try {
    await charge(amount, reference);
  } catch (error) {
    status.textContent = `The demo donation did not go through: ${error.message}`;
    return;
  } finally {
    button.disabled = false;
  }
  window.parent.postMessage({ type: 'donation-completed', amount, donationId: reference }, parentOrigin);
  status.textContent = `Demo donation of $${amount.toFixed(2)} sent. Thank you!`;
  form.elements.custom.value = '';
});

// The page sizes the frame to the widget: tell it the height whenever the content's changes
// (a status line, a narrower phone wrapping the banner), so no part of the form is cut off.
new ResizeObserver(() => {
  window.parent.postMessage({ type: 'widget-height', height: document.documentElement.scrollHeight }, parentOrigin);
}).observe(document.body);
