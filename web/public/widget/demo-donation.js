const form = document.getElementById('donate');
const status = document.getElementById('status');
// The page that embeds the widget; a widget only ever reports to the page it sits in.
const parentOrigin = document.referrer ? new URL(document.referrer).origin : window.location.origin;
form.addEventListener('submit', (event) => {
  event.preventDefault();
  const custom = form.elements.custom.value.trim();
  const amount = Number(custom || form.elements.amount.value);
  if (!(amount > 0)) {
    status.textContent = 'Please enter an amount above $0.';
    return;
  }
  window.parent.postMessage({ type: 'donation-completed', amount }, parentOrigin);
  status.textContent = `Demo donation of $${amount.toFixed(2)} sent. Thank you!`;
  form.elements.custom.value = '';
});
