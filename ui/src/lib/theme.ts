// Light and dark themes: follow the system (prefers-color-scheme) unless the user picked one.
// The choice is kept in localStorage and applied as <html data-theme="light|dark">.

export type ThemeChoice = "system" | "light" | "dark";

export const THEME_STORAGE_KEY = "compute-planner.theme";
const CHOICES: readonly ThemeChoice[] = ["system", "light", "dark"];

function storage(): Storage | null {
  try {
    return typeof localStorage !== "undefined" ? localStorage : null;
  } catch {
    return null;
  }
}

export function loadTheme(): ThemeChoice {
  const stored = storage()?.getItem(THEME_STORAGE_KEY);
  return CHOICES.includes(stored as ThemeChoice) ? (stored as ThemeChoice) : "system";
}

export function saveTheme(choice: ThemeChoice): void {
  try {
    const s = storage();
    if (choice === "system") s?.removeItem(THEME_STORAGE_KEY);
    else s?.setItem(THEME_STORAGE_KEY, choice);
  } catch {
    // Storage full or refused: the choice still applies for this session.
  }
}

export function applyTheme(choice: ThemeChoice, root: HTMLElement = document.documentElement): void {
  if (choice === "system") delete root.dataset.theme;
  else root.dataset.theme = choice;
}

/** The choice after the toggle: system → light → dark → system. */
export function nextTheme(choice: ThemeChoice): ThemeChoice {
  return CHOICES[(CHOICES.indexOf(choice) + 1) % CHOICES.length] ?? "system";
}

export function themeLabel(choice: ThemeChoice): string {
  return choice === "system" ? "System" : choice === "light" ? "Light" : "Dark";
}
