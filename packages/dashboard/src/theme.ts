import {
  type CSSVariablesResolver,
  createTheme,
  darken,
  localStorageColorSchemeManager,
} from '@mantine/core';

export const theme = createTheme({
  primaryColor: 'blue',
  // Shade 8 keeps white button text above WCAG AA contrast in both schemes.
  primaryShade: { light: 8, dark: 8 },
  defaultRadius: 'md',
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  components: {
    // Links inside text must not rely on colour alone (WCAG 1.4.1).
    Anchor: { defaultProps: { underline: 'always' } },
    // The light variant's coloured title (teal.6 on teal.0) is below AA contrast: titles in the text colour.
    Alert: { styles: { title: { color: 'var(--mantine-color-text)' } } },
  },
});

/** Dark mode remembered across visits; public/color-scheme.js reads the same key before React starts. */
export const colorSchemeManager = localStorageColorSchemeManager({ key: 'mantine-color-scheme-value' });

/**
 * Mantine's default dimmed text (gray.6 on white) is below WCAG AA contrast: one shade darker, and
 * lighter in dark mode. Good/bad text colours (enough credits or not) that pass in both schemes.
 */
export const cssVariablesResolver: CSSVariablesResolver = (resolved) => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': resolved.colors.gray[7],
    '--scrub-ok-text': resolved.colors.teal[9],
    '--scrub-bad-text': resolved.colors.red[9],
    // The light variant's blue text (blue.9: the sidebar's links, light buttons and badges) on its
    // hovered tint (blue.2) was 3.9:1, below AA (axe, a hovered sidebar link): 15% darker, 5:1.
    '--mantine-color-blue-light-color': darken(resolved.colors.blue[9], 0.15),
  },
  dark: {
    '--mantine-color-dimmed': resolved.colors.dark[1],
    '--scrub-ok-text': resolved.colors.teal[4],
    '--scrub-bad-text': resolved.colors.red[4],
  },
});
