/** An answer other than 2xx, with a message a person can read. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code?: string,
    /** Sent with the answer, e.g. Retry-After. */
    readonly headers?: Readonly<Record<string, string>>,
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

export const notFound = (what: string) => new HttpError(404, `${what} not found`);

/** Spec section 5: a request that needs a user fails with this message when there is none. */
export const authenticationRequired = () => new HttpError(401, 'Authentication required for this request');
