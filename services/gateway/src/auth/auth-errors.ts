import { type AuthErrorCode, authErrorMessage } from '@qrshirt/contracts';
import { HttpError } from '../http/http-error';

/** `{ error, code }` with the spec's message for the code, which the client shows as it is. */
export const authError = (status: number, code: AuthErrorCode, headers?: Record<string, string>): HttpError =>
  new HttpError(status, authErrorMessage(code), code, headers);
