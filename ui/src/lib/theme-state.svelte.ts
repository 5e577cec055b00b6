// The theme as reactive state: the user's choice and the theme in effect (the system's when the
// choice is "system"). The compare screen asks the back end for charts in the effective theme
// and asks again when it changes.

import { applyTheme, loadTheme, saveTheme, type ThemeChoice } from "./theme";

function systemTheme(): "light" | "dark" {
  if (typeof window === "undefined" || typeof window.matchMedia !== "function") return "light";
  return window.matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light";
}

class ThemeState {
  choice: ThemeChoice = $state(loadTheme());
  system: "light" | "dark" = $state(systemTheme());

  constructor() {
    if (typeof window !== "undefined" && typeof window.matchMedia === "function") {
      window.matchMedia("(prefers-color-scheme: dark)").addEventListener("change", (e) => {
        this.system = e.matches ? "dark" : "light";
      });
    }
  }

  /** The theme on screen. */
  get effective(): "light" | "dark" {
    return this.choice === "system" ? this.system : this.choice;
  }

  /** Applies, remembers and publishes a choice. */
  set(choice: ThemeChoice): void {
    this.choice = choice;
    saveTheme(choice);
    applyTheme(choice);
  }
}

export const themeState = new ThemeState();
