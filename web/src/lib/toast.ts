import { notifications } from '@mantine/notifications';

/** The spec's destructive toasts (validation, load failures): red, with a title and a description. */
export function showErrorToast(title: string, message: string): void {
  notifications.show({ title, message, color: 'red', withBorder: true });
}

export function showSuccessToast(title: string, message: string): void {
  notifications.show({ title, message, color: 'green', withBorder: true });
}
