// The PDF font: Noto Sans TTF (SIL OFL 1.1) shipped by the npm package @expo-google-fonts/noto-sans,
// read from node_modules at run time — never fetched from the network. The built-in Helvetica of
// @react-pdf/renderer garbles ñ, accents and ₡ (DESIGN §4). Decision: docs/decisions/082-pdf-font.md.
import { createRequire } from "node:module";
import path from "node:path";
import { Font } from "@react-pdf/renderer";

export const PDF_FONT_FAMILY = "NotoSans";

let registered = false;

function fontDir(): string {
  const require = createRequire(import.meta.url);
  return path.dirname(require.resolve("@expo-google-fonts/noto-sans/package.json"));
}

/** Registers the font once per process (idempotent). */
export function registerPdfFont(): void {
  if (registered) return;
  const dir = fontDir();
  Font.register({
    family: PDF_FONT_FAMILY,
    fonts: [
      { src: path.join(dir, "400Regular", "NotoSans_400Regular.ttf"), fontWeight: "normal" },
      { src: path.join(dir, "700Bold", "NotoSans_700Bold.ttf"), fontWeight: "bold" },
    ],
  });
  // Never hyphenate: words (and the 50-digit clave) stay whole, and extracted text stays searchable.
  Font.registerHyphenationCallback((word) => [word]);
  registered = true;
}
