// The receipt as a PDF as wide as the thermal roll (80 mm or 58 mm), one page as long as its
// content. @react-pdf/renderer 4.9 has no automatic page height, so the height is estimated from
// the text (lines wrapped at the roll's width) with a margin; a printer's paper-saving mode skips
// the blank tail. What it prints is app/domain/receipt.ts's, like the receipt print page (decision 165).
import { Document, Image, Page, StyleSheet, Text, View, renderToBuffer } from "@react-pdf/renderer";
import type { DocumentView } from "../domain/document-view.ts";
import { RECEIPT_WIDTHS } from "../domain/print-formats.ts";
import { receiptOf, type Receipt } from "../domain/receipt.ts";
import { PDF_FONT_FAMILY, registerPdfFont } from "./font.server.ts";
import { qrPngDataUrl } from "./qr.server.ts";

const MM = 72 / 25.4;

const s = StyleSheet.create({
  center: { textAlign: "center" },
  title: { fontWeight: "bold", textAlign: "center" },
  row: { flexDirection: "row", justifyContent: "space-between" },
  rule: { borderTop: "0.6pt dashed #000", marginVertical: 3 },
  bold: { fontWeight: "bold" },
});

/** The page height (points) the receipt needs, generously: each text wrapped at the printable width. */
export function receiptHeight(r: Receipt, opts: { printableMm: number; fontSize: number; qrSize: number }): number {
  const width = opts.printableMm * MM;
  const perLine = (size: number, share = 1) => Math.max(8, Math.floor((width * share) / (size * 0.55)));
  const rows = (text: string, size: number, share = 1) => Math.max(1, Math.ceil(text.length / perLine(size, share))) * size * 1.35;
  const f = opts.fontSize;
  let h = 6 * MM + rows(r.company.name, f * 1.3);
  for (const l of r.company.lines) h += rows(l, f);
  h += rows(r.title, f) + 6;
  for (const x of r.facts) h += rows(x.value, f, 0.7);
  if (r.clave) h += rows(`Clave: ${r.clave}`, f * 0.85);
  for (const l of r.client) h += rows(l, f);
  for (const l of r.lines) h += rows(l.description, f) + rows(l.detail, f * 0.9, 0.65) + 2;
  h += r.totals.length * f * 1.6;
  if (r.note) h += rows(r.note, f) + 6;
  h += 3 * 6 + opts.qrSize + 4 + rows(r.publicUrl, f * 0.8) + (r.legal ? rows(r.legal, f * 0.8) + 2 : 0);
  return Math.ceil(h * 1.12 + 12);
}

export async function renderReceiptPdf(view: DocumentView, format: "80" | "58"): Promise<Buffer> {
  registerPdfFont();
  const r = receiptOf(view);
  const { paper, printable } = RECEIPT_WIDTHS[format];
  const fontSize = format === "80" ? 7.5 : 6.5;
  const qr = await qrPngDataUrl(view.publicUrl);
  const qrSize = Math.min(34, printable - 14) * MM;
  const doc = (
    <Document title={`${view.kindLabel} ${view.consecutive}`} author={view.company.name} creator="Colibrí" producer="Colibrí" language="es-CR">
      <Page size={[paper * MM, receiptHeight(r, { printableMm: printable, fontSize, qrSize })]} wrap={false} style={{ fontFamily: PDF_FONT_FAMILY, fontSize, paddingVertical: 3 * MM, paddingHorizontal: ((paper - printable) / 2) * MM, color: "#000" }}>
        <Text style={[s.title, { fontSize: fontSize * 1.3 }]}>{r.company.name}</Text>
        {r.company.lines.map((l) => (
          <Text key={l} style={s.center}>
            {l}
          </Text>
        ))}
        <Text style={[s.title, { marginVertical: 3 }]}>{r.title.toUpperCase()}</Text>
        {r.facts.map((f) => (
          <View key={f.label} style={s.row}>
            <Text style={s.bold}>{f.label}</Text>
            <Text style={{ maxWidth: "70%", textAlign: "right" }}>{f.value}</Text>
          </View>
        ))}
        {r.clave ? <Text style={{ fontSize: fontSize * 0.85 }}>Clave: {r.clave}</Text> : null}
        {r.client.length ? <View style={s.rule} /> : null}
        {r.client.map((l) => (
          <Text key={l}>{l}</Text>
        ))}
        <View style={s.rule} />
        {r.lines.map((l, i) => (
          <View key={i} style={{ marginBottom: 2 }} wrap={false}>
            <Text style={s.bold}>{l.description}</Text>
            <View style={s.row}>
              <Text style={{ maxWidth: "65%", fontSize: fontSize * 0.9 }}>{l.detail}</Text>
              <Text>{l.total}</Text>
            </View>
          </View>
        ))}
        <View style={s.rule} />
        {r.totals.map((t) => (
          <View key={t.label} style={s.row}>
            <Text style={t.strong ? [s.bold, { fontSize: fontSize * 1.15 }] : undefined}>{t.label}</Text>
            <Text style={t.strong ? [s.bold, { fontSize: fontSize * 1.15 }] : undefined}>{t.value}</Text>
          </View>
        ))}
        {r.note ? (
          <>
            <View style={s.rule} />
            <Text>{r.note}</Text>
          </>
        ) : null}
        <View style={{ alignItems: "center", marginTop: 4 }}>
          <Image src={qr} style={{ width: qrSize, height: qrSize }} />
        </View>
        <Text style={[s.center, { fontSize: fontSize * 0.8 }]}>{r.publicUrl}</Text>
        {r.legal ? <Text style={[s.center, { fontSize: fontSize * 0.8, marginTop: 2 }]}>{r.legal}</Text> : null}
      </Page>
    </Document>
  );
  return renderToBuffer(doc);
}
