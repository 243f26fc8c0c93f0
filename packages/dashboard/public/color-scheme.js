// Sets the remembered colour scheme before React starts, so a dark-mode user never sees a white flash.
// The key is Mantine's localStorageColorSchemeManager default.
(() => {
  let scheme = 'light';
  try {
    const stored = window.localStorage.getItem('mantine-color-scheme-value');
    if (stored === 'dark') scheme = 'dark';
  } catch (_) {
    // Storage blocked: light, as Mantine's default.
  }
  document.documentElement.setAttribute('data-mantine-color-scheme', scheme);
})();
