import { isTooShortPassword, MIN_PASSWORD_LENGTH } from '@qrshirt/contracts';

/** Spec section 5: email and password are both needed. */
export function signInProblem(values: { email: string; password: string }): string | null {
  if (!values.email.trim() || !values.password) return 'Please fill in all fields';
  return null;
}

export interface SignUpValues {
  displayName: string;
  email: string;
  password: string;
  confirmPassword: string;
}

/** Spec section 5, in its order: all four fields, matching passwords, then the minimum length. */
export function signUpProblem(values: SignUpValues): string | null {
  if (!values.displayName.trim() || !values.email.trim() || !values.password || !values.confirmPassword) {
    return 'Please fill in all fields';
  }
  return newPasswordProblem(values.password, values.confirmPassword);
}

/** Signing up and choosing a new password share these two rules. */
export function newPasswordProblem(password: string, confirmPassword: string): string | null {
  if (!password || !confirmPassword) return 'Please fill in all fields';
  if (password !== confirmPassword) return 'Passwords do not match';
  if (isTooShortPassword(password)) return `Password should be at least ${MIN_PASSWORD_LENGTH} characters`;
  return null;
}
