// The document PDF (@react-pdf/renderer) over a DocumentView: stored values only. Both invoice
// formats (2 adds CABYS), logo and company data, client, lines, totals (and total in colones when
// the currency is not colones), clave and consecutive, Hacienda status, QR of the public link,
// note, references, terms and the legal notice. Font: font.server.ts.
import { Document, Image, Page, StyleSheet, Text, View, renderToBuffer } from "@react-pdf/renderer";
import { LEGAL_NOTICE } from "../domain/legal.ts";
import { partyHeading, type DocumentView } from "../domain/document-view.ts";
import { PDF_FONT_FAMILY, registerPdfFont } from "./font.server.ts";
import { clientLines, companyLines, documentFacts, lineCells, lineColumns, referenceLines, totalRows } from "./layout.ts";
import { qrPngDataUrl } from "./qr.server.ts";

/** Spec part 2 §8: shown when a PDF cannot be produced. */
export const PDF_UNAVAILABLE = "Este archivo no esta disponible para su descarga";

/** The image types @react-pdf/renderer can embed; other logos (SVG, WebP…) are left out of the PDF. */
const PDF_IMAGE_TYPES: ReadonlySet<string> = new Set(["image/png", "image/jpeg", "image/jpg"]);

const s = StyleSheet.create({
  page: { fontFamily: PDF_FONT_FAMILY, fontSize: 8.5, padding: 32, color: "#1f2937" },
  row: { flexDirection: "row" },
  header: { flexDirection: "row", justifyContent: "space-between", marginBottom: 12 },
  logo: { width: 80, height: 80, objectFit: "contain", marginRight: 10 },
  companyName: { fontSize: 13, fontWeight: "bold" },
  muted: { color: "#4b5563" },
  title: { fontSize: 12, fontWeight: "bold", textAlign: "right" },
  box: { border: "1pt solid #d1d5db", borderRadius: 3, padding: 6, marginBottom: 8 },
  label: { fontWeight: "bold" },
  th: { flexDirection: "row", backgroundColor: "#e5e7eb", fontWeight: "bold", paddingVertical: 3 },
  tr: { flexDirection: "row", borderBottom: "0.5pt solid #e5e7eb", paddingVertical: 3 },
  cell: { paddingHorizontal: 2 },
  totals: { width: 230, marginLeft: "auto", marginTop: 8 },
  totalRow: { flexDirection: "row", justifyContent: "space-between", paddingVertical: 1.5 },
  strong: { fontWeight: "bold", fontSize: 10 },
  qr: { width: 90, height: 90 },
  small: { fontSize: 7.5 },
  footer: { fontSize: 7.5, color: "#4b5563", position: "absolute", bottom: 16, left: 32, right: 32, textAlign: "center" },
});

/**
 * Up to this many lines a document fits one page, and the footer is static text: a dynamic
 * "página N de M" makes react-pdf lay every page out twice (~20 % of the render time).
 */
const SINGLE_PAGE_LINES = 12;

function Facts({ view }: { view: DocumentView }) {
  return (
    <View style={{ width: 210 }}>
      <Text style={s.title}>{view.kindLabel}</Text>
      {documentFacts(view).map((f) => (
        <Text key={f.label} style={{ textAlign: "right" }}>
          <Text style={s.label}>{f.label}: </Text>
          {f.value}
        </Text>
      ))}
    </View>
  );
}

function InvoiceDocument({ view, qr }: { view: DocumentView; qr: string | null }) {
  const cols = lineColumns(view);
  const party = partyHeading(view);
  const cells = lineCells(view);
  const c = view.company;
  return (
    <Document title={`${view.kindLabel} ${view.consecutive}`} author={c.name} creator="Colibrí" producer="Colibrí" language="es-CR">
      <Page size="LETTER" style={s.page}>
        <View style={s.header}>
          <View style={[s.row, { flex: 1 }]}>
            {c.logo && PDF_IMAGE_TYPES.has(c.logo.mime) ? <Image style={s.logo} src={`data:${c.logo.mime};base64,${Buffer.from(c.logo.bytes).toString("base64")}`} /> : null}
            <View style={{ flex: 1 }}>
              <Text style={s.companyName}>{c.name}</Text>
              {c.fantasyName ? <Text>{c.fantasyName}</Text> : null}
              {companyLines(view).map((l) => (
                <Text key={l} style={s.muted}>
                  {l}
                </Text>
              ))}
            </View>
          </View>
          <Facts view={view} />
        </View>

        {view.clave ? (
          <View style={s.box}>
            <Text>
              <Text style={s.label}>Clave: </Text>
              {view.clave}
            </Text>
          </View>
        ) : null}

        <View style={s.box}>
          <Text style={s.label}>{`${party.label}: ${party.name}`}</Text>
          {clientLines(view).map((l) => (
            <Text key={l}>{l}</Text>
          ))}
        </View>

        <View style={s.th} fixed>
          {cols.map((col) => (
            <Text key={col.key} style={[s.cell, { flex: col.width, textAlign: col.align }]}>
              {col.header}
            </Text>
          ))}
        </View>
        {cells.map((row, i) => (
          <View key={i} style={s.tr} wrap={false}>
            {cols.map((col) => (
              <Text key={col.key} style={[s.cell, { flex: col.width, textAlign: col.align }]}>
                {row[col.key]}
              </Text>
            ))}
          </View>
        ))}

        <View style={s.row} wrap={false}>
          <View style={{ flex: 1, marginTop: 8, paddingRight: 12 }}>
            {referenceLines(view).map((r) => (
              <Text key={r}>
                <Text style={s.label}>Referencia: </Text>
                {r}
              </Text>
            ))}
            {view.note ? (
              <Text style={{ marginTop: 4 }}>
                <Text style={s.label}>Observaciones: </Text>
                {view.note}
              </Text>
            ) : null}
          </View>
          <View style={s.totals}>
            {totalRows(view).map((r) => (
              <View key={r.label} style={s.totalRow}>
                <Text style={r.strong ? s.strong : undefined}>{r.label}</Text>
                <Text style={r.strong ? s.strong : undefined}>{r.value}</Text>
              </View>
            ))}
          </View>
        </View>

        <View style={[s.row, { marginTop: 14 }]} wrap={false}>
          {qr ? <Image style={s.qr} src={qr} /> : null}
          <View style={{ flex: 1, paddingLeft: 10 }}>
            {view.terms ? (
              <Text style={{ marginBottom: 4 }}>
                <Text style={s.label}>Términos y condiciones: </Text>
                {view.terms}
              </Text>
            ) : null}
            {view.publicUrl ? <Text style={s.small}>Consulte este documento en: {view.publicUrl}</Text> : null}
            {view.kind !== "qt" ? <Text style={[s.small, { marginTop: 4 }]}>{LEGAL_NOTICE}</Text> : null}
          </View>
        </View>
        {view.lines.length > SINGLE_PAGE_LINES ? (
          <Text style={s.footer} fixed render={({ pageNumber, totalPages }) => `${view.kindLabel} ${view.consecutive} — página ${pageNumber} de ${totalPages}`} />
        ) : (
          <Text style={s.footer} fixed>{`${view.kindLabel} ${view.consecutive}`}</Text>
        )}
      </Page>
    </Document>
  );
}

/** Renders the PDF of a document view. Throws on failure (callers show PDF_UNAVAILABLE). */
export async function renderDocumentPdf(view: DocumentView): Promise<Buffer> {
  registerPdfFont();
  // A received document (issue 12) has no public page of ours: no QR code, no link.
  const qr = view.publicUrl ? await qrPngDataUrl(view.publicUrl) : null;
  return renderToBuffer(<InvoiceDocument view={view} qr={qr} />);
}
