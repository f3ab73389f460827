import { Alert, createTheme, type CSSVariablesResolver, Notification } from '@mantine/core';

/**
 * Shade 8 of the primary blue carries white text at AA contrast (shade 6, Mantine's default, does
 * not), and dimmed text one step darker than Mantine's gray 6 for the same reason.
 */
export const theme = createTheme({
  primaryColor: 'blue',
  primaryShade: { light: 8, dark: 6 },
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  headings: { fontWeight: '800' },
  defaultRadius: 'md',
  components: {
    // Alert titles in the body text colour: Mantine's light green or red title on its tinted
    // background falls under AA contrast; the tint still carries the tone.
    Alert: Alert.extend({ styles: { title: { color: 'var(--mantine-color-text)' } } }),
    // Toasts: a named close button, and a description dark enough to read (Mantine's is gray 6).
    Notification: Notification.extend({
      defaultProps: { closeButtonProps: { 'aria-label': 'Close notification' } },
      styles: { description: { color: 'var(--mantine-color-gray-7)' } },
    }),
  },
});

export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: { '--mantine-color-dimmed': 'var(--mantine-color-gray-7)' },
  dark: {},
});
