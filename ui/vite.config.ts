import { defineConfig } from "vite";
import { svelte } from "@sveltejs/vite-plugin-svelte";

// The Tauri shell loads ui/dist (release) or the dev server on port 1420 (tauri.conf.json).
export default defineConfig({
  plugins: [svelte()],
  // Relative asset URLs: the bundle is served from Tauri's custom protocol, not a web root.
  base: "./",
  clearScreen: false,
  server: {
    port: 1420,
    strictPort: true,
    watch: { ignored: ["**/src-tauri/**"] },
  },
  build: {
    outDir: "dist",
    emptyOutDir: true,
    // The Linux shell renders with WebKitGTK 2.50 (Safari 18 class); safari15 keeps headroom.
    target: ["es2021", "safari15"],
    sourcemap: false,
  },
});
