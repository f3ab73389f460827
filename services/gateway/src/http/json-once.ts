/**
 * Serialises each answer object once: the catalogue queries hand out the same array until the
 * catalogue changes, so the shop's busiest answers are not stringified again on every visit.
 */
export function jsonOnce(): (answer: object) => string {
  const bodies = new WeakMap<object, string>();
  return (answer) => {
    let body = bodies.get(answer);
    if (body === undefined) {
      body = JSON.stringify(answer);
      bodies.set(answer, body);
    }
    return body;
  };
}
