/**
 * Probes until `done` holds for the value, or `timeoutMs` passes; resolves with the last value
 * either way, so the caller's assertion shows what it was.
 */
export async function eventually<T>(
  probe: () => Promise<T>,
  done: (value: T) => boolean,
  timeoutMs = 30_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let value = await probe();
  while (!done(value) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    value = await probe();
  }
  return value;
}
