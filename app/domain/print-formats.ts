// The print formats a company chooses in its general configuration (decision 165). Apart from
// receipt.ts so the configuration page's JavaScript carries only this list.

export type PrintFormat = "a4" | "80" | "58";

export const PRINT_FORMATS: ReadonlyArray<{ value: PrintFormat; label: string }> = [
  { value: "a4", label: "Página completa (carta o A4)" },
  { value: "80", label: "Recibo de 80 mm (impresora térmica)" },
  { value: "58", label: "Recibo de 58 mm (impresora térmica)" },
];

export const isPrintFormat = (v: unknown): v is PrintFormat => v === "a4" || v === "80" || v === "58";

/** Paper and printable widths of each roll, in millimetres (the usual 80 mm and 58 mm printers). */
export const RECEIPT_WIDTHS: Record<"80" | "58", { paper: number; printable: number }> = {
  "80": { paper: 80, printable: 72 },
  "58": { paper: 58, printable: 48 },
};
