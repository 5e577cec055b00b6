// Svelte compiler options shared by Vite, Vitest and svelte-check.
export default {
  compilerOptions: {
    // Every component uses runes ($state, $derived, $props); legacy syntax is an error.
    runes: true,
  },
};
