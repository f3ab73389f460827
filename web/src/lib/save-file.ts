/** Hands a file made or fetched in the page to the browser, which saves it under `name`. */
export function saveBlob(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  try {
    const link = document.createElement('a');
    link.href = url;
    link.download = name;
    link.hidden = true;
    document.body.append(link);
    link.click();
    link.remove();
  } finally {
    // The click has handed the file over; a later revoke only keeps the memory longer.
    setTimeout(() => URL.revokeObjectURL(url), 0);
  }
}
