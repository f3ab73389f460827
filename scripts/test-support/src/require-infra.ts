export type InfraName =
  | 'redis'
  | 'kafka'
  | 'eventstore'
  | 'chromium'
  | 'schemathesis'
  | 'nginx'
  | 'stripe-mock'
  | 'compose'
  | 'mount'
  | 'netns';

/**
 * Whether an integration suite must fail, rather than skip, when it cannot reach `name`.
 * CI sets REQUIRE_INFRA (comma-separated, e.g. `redis,kafka`) so a missing server is never a
 * silent green run.
 */
export function infraRequired(name: InfraName): boolean {
  return (process.env.REQUIRE_INFRA ?? '')
    .split(',')
    .map((entry) => entry.trim().toLowerCase())
    .includes(name);
}
