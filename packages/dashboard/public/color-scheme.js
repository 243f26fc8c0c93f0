// Sets the remembered colour scheme before React starts, so a dark-mode user never sees a white flash.
// The key is Mantine's localStorageColorSchemeManager default.
(function () {
  try {
    var stored = window.localStorage.getItem('mantine-color-scheme-value');
    var scheme = stored === 'dark' || stored === 'light' ? stored : 'light';
    document.documentElement.setAttribute('data-mantine-color-scheme', scheme);
  } catch (_) {
    document.documentElement.setAttribute('data-mantine-color-scheme', 'light');
  }
})();
