// A rejected document's reasons in plain Spanish, from Hacienda's DetalleMensaje. Hacienda answers
// with a sentence and then a table `codigo, mensaje, fila, columna`, one quoted message a row;
// schema messages carry an XPath and the validator's English. The detail screen lists the reasons,
// each with what it means, and keeps Hacienda's whole answer one click away.

/** "/FacturaElectronica/Emisor/Ubicacion/Provincia" → "Emisor › Ubicacion › Provincia". */
function fieldOf(path: string): string {
  return path
    .split("/")
    .filter(Boolean)
    .slice(1)
    .map((p) => p.replace(/\[\d+\]$/, "").replace(/^.*:/, ""))
    .join(" › ");
}

const SCHEMA_PROBLEMS: [RegExp, string][] = [
  [/minLength|underruns|too short/i, "está vacío o es demasiado corto"],
  [/maxLength|exceeds the allowed maximum length|too long/i, "es demasiado largo"],
  [/enumeration|not an element of the set/i, "no es un código permitido por Hacienda"],
  [/pattern|not accepted by the pattern/i, "no tiene el formato que exige Hacienda"],
  [/totalDigits|fractionDigits|decimal|not a valid value of the atomic type/i, "no es un número válido para Hacienda"],
];

/** One row's message in plain Spanish. */
export function plainReason(message: string): string {
  const schema = /^El comprobante no cumple el esquema XSD v4\.4(?: en (\S+))?: (.*)$/s.exec(message);
  if (schema) {
    const field = schema[1] ? fieldOf(schema[1]) : "";
    if (/Missing child element|not expected/i.test(schema[2])) {
      return field ? `En «${field}» falta un dato obligatorio o sobra uno.` : "Al comprobante le falta un dato obligatorio o le sobra uno.";
    }
    const problem = SCHEMA_PROBLEMS.find(([re]) => re.test(schema[2]))?.[1] ?? "no cumple el formato de Hacienda";
    return field ? `El dato «${field}» ${problem}.` : `Un dato del comprobante ${problem}.`;
  }
  if (/^La firma del comprobante electrónico no es válida/.test(message)) {
    return "La firma digital no es válida: revise la llave criptográfica (.p12), su PIN y su vigencia en la configuración de Hacienda.";
  }
  return message.trim();
}

/** The reasons of a rejection, in plain Spanish (empty when Hacienda gave none). */
export function rejectionReasons(detail: string | null | undefined): string[] {
  if (!detail) return [];
  const rows = [...detail.matchAll(/^\s*-?\d+\s*,\s*"((?:[^"]|"")*)"\s*,\s*-?\d+\s*,\s*-?\d+\s*$/gm)].map((m) => m[1].replace(/""/g, '"'));
  if (rows.length) return [...new Set(rows.map(plainReason))];
  // No table: Hacienda's sentences as they are, without the one that only says it was processed.
  return detail
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l && !/^Este comprobante fue procesado/i.test(l) && !/^\[|^\]|^codigo, mensaje/.test(l))
    .map(plainReason);
}
