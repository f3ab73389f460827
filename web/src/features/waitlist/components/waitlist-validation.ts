interface WaitlistValues {
  size: string | null;
  charityId: string | null;
  name: string;
  email: string;
}

interface ValidationProblem {
  title: string;
  message: string;
}

/**
 * Spec section 5: the checks run in this order and only the first failing one is shown, each as
 * a destructive toast. Name and email count as empty when only blanks were typed.
 */
export function firstWaitlistProblem(values: WaitlistValues): ValidationProblem | null {
  if (!values.size) return { title: 'Size Required', message: 'Please select a size first!' };
  if (!values.charityId) return { title: 'Charity Required', message: 'Please select a charity first!' };
  if (!values.name.trim()) return { title: 'Name Required', message: 'Please enter your name!' };
  if (!values.email.trim()) return { title: 'Email Required', message: 'Please enter your email!' };
  return null;
}
