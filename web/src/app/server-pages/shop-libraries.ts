/*
 * As libraries.ts, for the shop alone: what its toasts are made of, a step of its own before the
 * page's components.
 */
export { Notifications } from '@mantine/notifications';
