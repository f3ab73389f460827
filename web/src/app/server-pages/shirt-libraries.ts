/*
 * As libraries.ts, for a shirt's page alone: what its carousel, waitlist form and toasts
 * are made of, a step of its own before the page's components.
 */
export { ActionIcon, List, Select, TextInput } from '@mantine/core';
export { Notifications } from '@mantine/notifications';
