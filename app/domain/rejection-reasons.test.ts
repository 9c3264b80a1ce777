import { describe, expect, it } from "vitest";
import { detalleMensaje } from "../hacienda/sandbox/mensaje.ts";
import { plainReason, rejectionReasons } from "./rejection-reasons.ts";

describe("rejection reasons", () => {
  it("lists the rows of Hacienda's table in plain Spanish, naming the field", () => {
    const detail = detalleMensaje({
      estado: "rechazado",
      errores: [
        {
          codigo: -37,
          mensaje: "El comprobante no cumple el esquema XSD v4.4 en /FacturaElectronica/Emisor/Nombre: Element 'Nombre': [facet 'minLength'] The value '' has a length of '0'; this underruns the allowed minimum length of '1'.",
          fila: 3,
          columna: 0,
        },
        { codigo: -37, mensaje: "El comprobante no cumple el esquema XSD v4.4 en /FacturaElectronica/Receptor/Identificacion/Tipo: Element 'Tipo': [facet 'enumeration'] The value '09' is not an element of the set {'01', '02'}.", fila: 5, columna: 0 },
        { codigo: -99, mensaje: 'La firma del comprobante electrónico no es válida (digest mismatch; "Reference" 1)', fila: 0, columna: 0 },
        { codigo: -53, mensaje: "El código de actividad económica del emisor no está inscrito.", fila: 0, columna: 0 },
      ],
    });
    expect(rejectionReasons(detail)).toEqual([
      "El dato «Emisor › Nombre» está vacío o es demasiado corto.",
      "El dato «Receptor › Identificacion › Tipo» no es un código permitido por Hacienda.",
      "La firma digital no es válida: revise la llave criptográfica (.p12), su PIN y su vigencia en la configuración de Hacienda.",
      "El código de actividad económica del emisor no está inscrito.",
    ]);
  });

  it("without a table, keeps Hacienda's sentences but the one that only says it was processed", () => {
    expect(rejectionReasons("Este comprobante fue procesado en el ambiente de pruebas.\nLa clave ya fue utilizada por otro comprobante.")).toEqual(["La clave ya fue utilizada por otro comprobante."]);
    expect(rejectionReasons(null)).toEqual([]);
    expect(rejectionReasons("")).toEqual([]);
  });

  it("an unknown schema problem still names the field", () => {
    expect(plainReason("El comprobante no cumple el esquema XSD v4.4 en /NotaCreditoElectronica/ResumenFactura/TotalVenta: something odd")).toBe(
      "El dato «ResumenFactura › TotalVenta» no cumple el formato de Hacienda.",
    );
    expect(plainReason("El comprobante no cumple el esquema XSD v4.4 en /FacturaElectronica/Emisor: Element 'Correo': This element is not expected.")).toBe("En «Emisor» falta un dato obligatorio o sobra uno.");
    expect(plainReason("El comprobante no cumple el esquema XSD v4.4: Element 'X': This element is not expected.")).toBe("Al comprobante le falta un dato obligatorio o le sobra uno.");
  });
});
