// The QR code of a document's public link, as a PNG data URL (PDF) or an SVG string (public page).
import QRCode from "qrcode";

const OPTIONS = { errorCorrectionLevel: "M" as const, margin: 1 };

export function qrPngDataUrl(text: string): Promise<string> {
  return QRCode.toDataURL(text, { ...OPTIONS, width: 164, type: "image/png" });
}

export function qrSvg(text: string): Promise<string> {
  return QRCode.toString(text, { ...OPTIONS, type: "svg" });
}
