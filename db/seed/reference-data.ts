/**
 * Colibrí reference data (pure data, no database code). Seeded by `db/seed/index.ts`.
 *
 * Every row has a stable integer `id` — the value the app stores. Never renumber or reuse an id;
 * append new rows with new ids. For Hacienda code tables the id is the numeric value of the code
 * (`"01"` → 1, `"99"` → 99) and `code` is the exact string written into the XML.
 *
 * Sources: DGT "Anexos y estructuras v4.4" Notas 4–23 as summarised in shared/hacienda/NOTES.md §8, and the
 * enumerations/documentation of the v4.4 (2026 revision) XSDs in shared/hacienda/xsd/v4.4-2026/
 * (FacturaElectronica_V4.4.xsd; ReciboElectronicoPago_V4.4.xsd for the REP-only codes). Names are the XSD
 * documentation texts with typos/accents fixed.
 */

// ───────────────────────────── Row types ─────────────────────────────

export interface IdentificationTypeRow {
  readonly id: number;
  /** TipoIdentificacion (Nota 4). */
  readonly code: string;
  readonly name: string;
  /** false = only for receivers / FEC issuers (05, 06); a company (emisor) cannot use it. */
  readonly forCompanies: boolean;
}
export interface CurrencyRow {
  readonly id: number;
  /** ISO 4217 (CodigoMoneda). */
  readonly code: string;
  readonly name: string;
  readonly symbol: string;
}
export interface CountryRow {
  readonly id: number;
  /** ISO 3166-1 alpha-2. */
  readonly code: string;
  /** Spanish name. */
  readonly name: string;
}
export interface UnitOfMeasureRow {
  readonly id: number;
  /** UnidadMedidaType value, case-sensitive (`Cm` comisiones ≠ `cm` centímetro). */
  readonly symbol: string;
  readonly description: string;
  /** A service unit (Sp, Spe, St, Al, Alc, Cm, I, Os): lines with it are services. */
  readonly service: boolean;
}
export interface VatRateRow {
  readonly id: number;
  /** CodigoTarifaIVA (Nota 8.1). */
  readonly code: string;
  readonly name: string;
  /** Percentage as a decimal string with 2 decimals ("13.00"). */
  readonly rate: string;
  /** 10 Tarifa Exenta. */
  readonly exempt: boolean;
  /** 11 Tarifa 0% sin derecho a crédito (no sujeto). */
  readonly noSujeto: boolean;
  /** 05–07 transitory rates: only valid on notas de crédito/débito. */
  readonly notesOnly: boolean;
}
export interface TaxTypeRow {
  readonly id: number;
  readonly name: string;
  /** Percentage as a decimal string ("13", "0.5"). */
  readonly rate: string;
  /** Impuesto/Codigo (Nota 8): always "01" IVA for these defaults. */
  readonly taxCode: string;
  /** CodigoTarifaIVA. */
  readonly vatCode: string;
}
export interface CodeRow {
  readonly id: number;
  readonly code: string;
  readonly name: string;
}
export interface SaleConditionRow extends CodeRow {
  /** Only valid in the Recibo Electrónico de Pago (09, 11). */
  readonly repOnly: boolean;
}
export interface PaymentMethodRow extends CodeRow {}
export interface PaymentTermRow {
  readonly id: number;
  readonly name: string;
  /** PlazoCredito in days (0 = contado). */
  readonly days: number;
}
export interface ReferenceCodeRow extends CodeRow {
  /** Only valid in the Recibo Electrónico de Pago (17). */
  readonly repOnly: boolean;
}
export interface ReferenceDocumentTypeRow extends CodeRow {}
export interface DiscountCodeRow extends CodeRow {}
export interface OtherChargeTypeRow extends CodeRow {}
export interface ExonerationTypeRow extends CodeRow {
  /** Marked in the Anexo as only for notas de crédito/débito ("inhabilitado" for new invoices): 01, 05, 06, 07. */
  readonly notesOnly: boolean;
}
export interface ExonerationInstitutionRow extends CodeRow {}
export interface TaxCodeRow extends CodeRow {}
export interface TransactionTypeRow extends CodeRow {}
export interface CategoryRow {
  readonly id: number;
  readonly name: string;
}
export interface EmailProtocolRow {
  readonly id: number;
  /** nodemailer transport name. */
  readonly name: string;
}
export interface EncryptionRow {
  readonly id: number;
  readonly name: string;
  readonly description: string;
}

// ───────────────────────────── Identification / money / countries ─────────────────────────────

/** TipoIdentificacion (Nota 4). 01–04 first: the ones a company can have. */
export const identificationTypes = [
  { id: 1, code: "01", name: "Cédula Física", forCompanies: true },
  { id: 2, code: "02", name: "Cédula Jurídica", forCompanies: true },
  { id: 3, code: "03", name: "DIMEX", forCompanies: true },
  { id: 4, code: "04", name: "NITE", forCompanies: true },
  { id: 5, code: "05", name: "Extranjero no domiciliado", forCompanies: false },
  { id: 6, code: "06", name: "No contribuyente", forCompanies: false },
] as const satisfies readonly IdentificationTypeRow[];

/** Ids 1 (USD) and 2 (CRC) are fixed by the spec. */
export const currencies = [
  { id: 1, code: "USD", name: "Dólar", symbol: "$" },
  { id: 2, code: "CRC", name: "Colón", symbol: "₡" },
  { id: 3, code: "EUR", name: "Euro", symbol: "€" },
] as const satisfies readonly CurrencyRow[];

export const CURRENCY_USD_ID = 1;
export const CURRENCY_CRC_ID = 2;
export const COSTA_RICA_COUNTRY_ID = 60;

/**
 * ISO 3166-1 countries (all 249 alpha-2 codes), Spanish names, in Spanish alphabetical order.
 * Ids follow that order except that Costa Rica has the spec-fixed id 60 (the others skip 60).
 * New countries get new ids at the end (> 249).
 */
export const countries = [
  { id: 1, code: "AF", name: "Afganistán" },
  { id: 2, code: "AL", name: "Albania" },
  { id: 3, code: "DE", name: "Alemania" },
  { id: 4, code: "AD", name: "Andorra" },
  { id: 5, code: "AO", name: "Angola" },
  { id: 6, code: "AI", name: "Anguila" },
  { id: 7, code: "AQ", name: "Antártida" },
  { id: 8, code: "AG", name: "Antigua y Barbuda" },
  { id: 9, code: "SA", name: "Arabia Saudí" },
  { id: 10, code: "DZ", name: "Argelia" },
  { id: 11, code: "AR", name: "Argentina" },
  { id: 12, code: "AM", name: "Armenia" },
  { id: 13, code: "AW", name: "Aruba" },
  { id: 14, code: "AU", name: "Australia" },
  { id: 15, code: "AT", name: "Austria" },
  { id: 16, code: "AZ", name: "Azerbaiyán" },
  { id: 17, code: "BS", name: "Bahamas" },
  { id: 18, code: "BD", name: "Bangladés" },
  { id: 19, code: "BB", name: "Barbados" },
  { id: 20, code: "BH", name: "Baréin" },
  { id: 21, code: "BE", name: "Bélgica" },
  { id: 22, code: "BZ", name: "Belice" },
  { id: 23, code: "BJ", name: "Benín" },
  { id: 24, code: "BM", name: "Bermudas" },
  { id: 25, code: "BY", name: "Bielorrusia" },
  { id: 26, code: "BO", name: "Bolivia" },
  { id: 27, code: "BA", name: "Bosnia y Herzegovina" },
  { id: 28, code: "BW", name: "Botsuana" },
  { id: 29, code: "BR", name: "Brasil" },
  { id: 30, code: "BN", name: "Brunéi" },
  { id: 31, code: "BG", name: "Bulgaria" },
  { id: 32, code: "BF", name: "Burkina Faso" },
  { id: 33, code: "BI", name: "Burundi" },
  { id: 34, code: "BT", name: "Bután" },
  { id: 35, code: "CV", name: "Cabo Verde" },
  { id: 36, code: "KH", name: "Camboya" },
  { id: 37, code: "CM", name: "Camerún" },
  { id: 38, code: "CA", name: "Canadá" },
  { id: 39, code: "BQ", name: "Caribe neerlandés" },
  { id: 40, code: "QA", name: "Catar" },
  { id: 41, code: "TD", name: "Chad" },
  { id: 42, code: "CZ", name: "Chequia" },
  { id: 43, code: "CL", name: "Chile" },
  { id: 44, code: "CN", name: "China" },
  { id: 45, code: "CY", name: "Chipre" },
  { id: 46, code: "VA", name: "Ciudad del Vaticano" },
  { id: 47, code: "CO", name: "Colombia" },
  { id: 48, code: "KM", name: "Comoras" },
  { id: 49, code: "CG", name: "Congo" },
  { id: 50, code: "KP", name: "Corea del Norte" },
  { id: 51, code: "KR", name: "Corea del Sur" },
  { id: 52, code: "CI", name: "Costa de Marfil" },
  { id: 60, code: "CR", name: "Costa Rica" },
  { id: 53, code: "HR", name: "Croacia" },
  { id: 54, code: "CU", name: "Cuba" },
  { id: 55, code: "CW", name: "Curazao" },
  { id: 56, code: "DK", name: "Dinamarca" },
  { id: 57, code: "DM", name: "Dominica" },
  { id: 58, code: "EC", name: "Ecuador" },
  { id: 59, code: "EG", name: "Egipto" },
  { id: 61, code: "SV", name: "El Salvador" },
  { id: 62, code: "AE", name: "Emiratos Árabes Unidos" },
  { id: 63, code: "ER", name: "Eritrea" },
  { id: 64, code: "SK", name: "Eslovaquia" },
  { id: 65, code: "SI", name: "Eslovenia" },
  { id: 66, code: "ES", name: "España" },
  { id: 67, code: "US", name: "Estados Unidos" },
  { id: 68, code: "EE", name: "Estonia" },
  { id: 69, code: "SZ", name: "Esuatini" },
  { id: 70, code: "ET", name: "Etiopía" },
  { id: 71, code: "PH", name: "Filipinas" },
  { id: 72, code: "FI", name: "Finlandia" },
  { id: 73, code: "FJ", name: "Fiyi" },
  { id: 74, code: "FR", name: "Francia" },
  { id: 75, code: "GA", name: "Gabón" },
  { id: 76, code: "GM", name: "Gambia" },
  { id: 77, code: "GE", name: "Georgia" },
  { id: 78, code: "GH", name: "Ghana" },
  { id: 79, code: "GI", name: "Gibraltar" },
  { id: 80, code: "GD", name: "Granada" },
  { id: 81, code: "GR", name: "Grecia" },
  { id: 82, code: "GL", name: "Groenlandia" },
  { id: 83, code: "GP", name: "Guadalupe" },
  { id: 84, code: "GU", name: "Guam" },
  { id: 85, code: "GT", name: "Guatemala" },
  { id: 86, code: "GF", name: "Guayana Francesa" },
  { id: 87, code: "GG", name: "Guernesey" },
  { id: 88, code: "GN", name: "Guinea" },
  { id: 89, code: "GQ", name: "Guinea Ecuatorial" },
  { id: 90, code: "GW", name: "Guinea-Bisáu" },
  { id: 91, code: "GY", name: "Guyana" },
  { id: 92, code: "HT", name: "Haití" },
  { id: 93, code: "HN", name: "Honduras" },
  { id: 94, code: "HK", name: "Hong Kong" },
  { id: 95, code: "HU", name: "Hungría" },
  { id: 96, code: "IN", name: "India" },
  { id: 97, code: "ID", name: "Indonesia" },
  { id: 98, code: "IQ", name: "Irak" },
  { id: 99, code: "IR", name: "Irán" },
  { id: 100, code: "IE", name: "Irlanda" },
  { id: 101, code: "BV", name: "Isla Bouvet" },
  { id: 102, code: "IM", name: "Isla de Man" },
  { id: 103, code: "CX", name: "Isla de Navidad" },
  { id: 104, code: "NF", name: "Isla Norfolk" },
  { id: 105, code: "IS", name: "Islandia" },
  { id: 106, code: "AX", name: "Islas Åland" },
  { id: 107, code: "KY", name: "Islas Caimán" },
  { id: 108, code: "CC", name: "Islas Cocos" },
  { id: 109, code: "CK", name: "Islas Cook" },
  { id: 110, code: "FO", name: "Islas Feroe" },
  { id: 111, code: "GS", name: "Islas Georgia del Sur y Sandwich del Sur" },
  { id: 112, code: "HM", name: "Islas Heard y McDonald" },
  { id: 113, code: "FK", name: "Islas Malvinas" },
  { id: 114, code: "MP", name: "Islas Marianas del Norte" },
  { id: 115, code: "MH", name: "Islas Marshall" },
  { id: 116, code: "PN", name: "Islas Pitcairn" },
  { id: 117, code: "SB", name: "Islas Salomón" },
  { id: 118, code: "TC", name: "Islas Turcas y Caicos" },
  { id: 119, code: "UM", name: "Islas Ultramarinas Menores de Estados Unidos" },
  { id: 120, code: "VG", name: "Islas Vírgenes Británicas" },
  { id: 121, code: "VI", name: "Islas Vírgenes de los Estados Unidos" },
  { id: 122, code: "IL", name: "Israel" },
  { id: 123, code: "IT", name: "Italia" },
  { id: 124, code: "JM", name: "Jamaica" },
  { id: 125, code: "JP", name: "Japón" },
  { id: 126, code: "JE", name: "Jersey" },
  { id: 127, code: "JO", name: "Jordania" },
  { id: 128, code: "KZ", name: "Kazajistán" },
  { id: 129, code: "KE", name: "Kenia" },
  { id: 130, code: "KG", name: "Kirguistán" },
  { id: 131, code: "KI", name: "Kiribati" },
  { id: 132, code: "KW", name: "Kuwait" },
  { id: 133, code: "LA", name: "Laos" },
  { id: 134, code: "LS", name: "Lesoto" },
  { id: 135, code: "LV", name: "Letonia" },
  { id: 136, code: "LB", name: "Líbano" },
  { id: 137, code: "LR", name: "Liberia" },
  { id: 138, code: "LY", name: "Libia" },
  { id: 139, code: "LI", name: "Liechtenstein" },
  { id: 140, code: "LT", name: "Lituania" },
  { id: 141, code: "LU", name: "Luxemburgo" },
  { id: 142, code: "MO", name: "Macao" },
  { id: 143, code: "MK", name: "Macedonia del Norte" },
  { id: 144, code: "MG", name: "Madagascar" },
  { id: 145, code: "MY", name: "Malasia" },
  { id: 146, code: "MW", name: "Malaui" },
  { id: 147, code: "MV", name: "Maldivas" },
  { id: 148, code: "ML", name: "Mali" },
  { id: 149, code: "MT", name: "Malta" },
  { id: 150, code: "MA", name: "Marruecos" },
  { id: 151, code: "MQ", name: "Martinica" },
  { id: 152, code: "MU", name: "Mauricio" },
  { id: 153, code: "MR", name: "Mauritania" },
  { id: 154, code: "YT", name: "Mayotte" },
  { id: 155, code: "MX", name: "México" },
  { id: 156, code: "FM", name: "Micronesia" },
  { id: 157, code: "MD", name: "Moldavia" },
  { id: 158, code: "MC", name: "Mónaco" },
  { id: 159, code: "MN", name: "Mongolia" },
  { id: 160, code: "ME", name: "Montenegro" },
  { id: 161, code: "MS", name: "Montserrat" },
  { id: 162, code: "MZ", name: "Mozambique" },
  { id: 163, code: "MM", name: "Myanmar (Birmania)" },
  { id: 164, code: "NA", name: "Namibia" },
  { id: 165, code: "NR", name: "Nauru" },
  { id: 166, code: "NP", name: "Nepal" },
  { id: 167, code: "NI", name: "Nicaragua" },
  { id: 168, code: "NE", name: "Níger" },
  { id: 169, code: "NG", name: "Nigeria" },
  { id: 170, code: "NU", name: "Niue" },
  { id: 171, code: "NO", name: "Noruega" },
  { id: 172, code: "NC", name: "Nueva Caledonia" },
  { id: 173, code: "NZ", name: "Nueva Zelanda" },
  { id: 174, code: "OM", name: "Omán" },
  { id: 175, code: "NL", name: "Países Bajos" },
  { id: 176, code: "PK", name: "Pakistán" },
  { id: 177, code: "PW", name: "Palaos" },
  { id: 178, code: "PS", name: "Palestina" },
  { id: 179, code: "PA", name: "Panamá" },
  { id: 180, code: "PG", name: "Papúa Nueva Guinea" },
  { id: 181, code: "PY", name: "Paraguay" },
  { id: 182, code: "PE", name: "Perú" },
  { id: 183, code: "PF", name: "Polinesia Francesa" },
  { id: 184, code: "PL", name: "Polonia" },
  { id: 185, code: "PT", name: "Portugal" },
  { id: 186, code: "PR", name: "Puerto Rico" },
  { id: 187, code: "GB", name: "Reino Unido" },
  { id: 188, code: "CF", name: "República Centroafricana" },
  { id: 189, code: "CD", name: "República Democrática del Congo" },
  { id: 190, code: "DO", name: "República Dominicana" },
  { id: 191, code: "RE", name: "Reunión" },
  { id: 192, code: "RW", name: "Ruanda" },
  { id: 193, code: "RO", name: "Rumanía" },
  { id: 194, code: "RU", name: "Rusia" },
  { id: 195, code: "EH", name: "Sáhara Occidental" },
  { id: 196, code: "WS", name: "Samoa" },
  { id: 197, code: "AS", name: "Samoa Americana" },
  { id: 198, code: "BL", name: "San Bartolomé" },
  { id: 199, code: "KN", name: "San Cristóbal y Nieves" },
  { id: 200, code: "SM", name: "San Marino" },
  { id: 201, code: "MF", name: "San Martín" },
  { id: 202, code: "PM", name: "San Pedro y Miquelón" },
  { id: 203, code: "VC", name: "San Vicente y las Granadinas" },
  { id: 204, code: "SH", name: "Santa Elena" },
  { id: 205, code: "LC", name: "Santa Lucía" },
  { id: 206, code: "ST", name: "Santo Tomé y Príncipe" },
  { id: 207, code: "SN", name: "Senegal" },
  { id: 208, code: "RS", name: "Serbia" },
  { id: 209, code: "SC", name: "Seychelles" },
  { id: 210, code: "SL", name: "Sierra Leona" },
  { id: 211, code: "SG", name: "Singapur" },
  { id: 212, code: "SX", name: "Sint Maarten" },
  { id: 213, code: "SY", name: "Siria" },
  { id: 214, code: "SO", name: "Somalia" },
  { id: 215, code: "LK", name: "Sri Lanka" },
  { id: 216, code: "ZA", name: "Sudáfrica" },
  { id: 217, code: "SD", name: "Sudán" },
  { id: 218, code: "SS", name: "Sudán del Sur" },
  { id: 219, code: "SE", name: "Suecia" },
  { id: 220, code: "CH", name: "Suiza" },
  { id: 221, code: "SR", name: "Surinam" },
  { id: 222, code: "SJ", name: "Svalbard y Jan Mayen" },
  { id: 223, code: "TH", name: "Tailandia" },
  { id: 224, code: "TW", name: "Taiwán" },
  { id: 225, code: "TZ", name: "Tanzania" },
  { id: 226, code: "TJ", name: "Tayikistán" },
  { id: 227, code: "IO", name: "Territorio Británico del Océano Índico" },
  { id: 228, code: "TF", name: "Territorios Australes Franceses" },
  { id: 229, code: "TL", name: "Timor-Leste" },
  { id: 230, code: "TG", name: "Togo" },
  { id: 231, code: "TK", name: "Tokelau" },
  { id: 232, code: "TO", name: "Tonga" },
  { id: 233, code: "TT", name: "Trinidad y Tobago" },
  { id: 234, code: "TN", name: "Túnez" },
  { id: 235, code: "TM", name: "Turkmenistán" },
  { id: 236, code: "TR", name: "Turquía" },
  { id: 237, code: "TV", name: "Tuvalu" },
  { id: 238, code: "UA", name: "Ucrania" },
  { id: 239, code: "UG", name: "Uganda" },
  { id: 240, code: "UY", name: "Uruguay" },
  { id: 241, code: "UZ", name: "Uzbekistán" },
  { id: 242, code: "VU", name: "Vanuatu" },
  { id: 243, code: "VE", name: "Venezuela" },
  { id: 244, code: "VN", name: "Vietnam" },
  { id: 245, code: "WF", name: "Wallis y Futuna" },
  { id: 246, code: "YE", name: "Yemen" },
  { id: 247, code: "DJ", name: "Yibuti" },
  { id: 248, code: "ZM", name: "Zambia" },
  { id: 249, code: "ZW", name: "Zimbabue" },
] as const satisfies readonly CountryRow[];

// ───────────────────────────── Items ─────────────────────────────

/**
 * UnidadMedidaType (Nota 15), in the order of the v4.4-2026 XSD enumeration (101 values, including the
 * case-sensitive pairs Cm/cm, h/H, S/s, T/t). Descriptions are the XSD's.
 */
export const unitsOfMeasure = [
  { id: 1, symbol: "1", description: "uno (índice de refracción)", service: false },
  { id: 2, symbol: "´", description: "minuto", service: false },
  { id: 3, symbol: "´´", description: "segundo", service: false },
  { id: 4, symbol: "°C", description: "grado Celsius", service: false },
  { id: 5, symbol: "1/m", description: "1 por metro", service: false },
  { id: 6, symbol: "A", description: "Ampere", service: false },
  { id: 7, symbol: "A/m", description: "ampere por metro", service: false },
  { id: 8, symbol: "A/m²", description: "ampere por metro cuadrado", service: false },
  { id: 9, symbol: "Acv", description: "Activo Virtual", service: false },
  { id: 10, symbol: "Al", description: "Alquiler de uso habitacional", service: true },
  { id: 11, symbol: "Alc", description: "Alquiler de uso comercial", service: true },
  { id: 12, symbol: "B", description: "bel", service: false },
  { id: 13, symbol: "Bq", description: "Becquerel", service: false },
  { id: 14, symbol: "C", description: "coulomb", service: false },
  { id: 15, symbol: "C/kg", description: "coulomb por kilogramo", service: false },
  { id: 16, symbol: "C/m²", description: "coulomb por metro cuadrado", service: false },
  { id: 17, symbol: "C/m³", description: "coulomb por metro cúbico", service: false },
  { id: 18, symbol: "Cc", description: "Cajuela de café", service: false },
  { id: 19, symbol: "Cd", description: "Candela", service: false },
  { id: 20, symbol: "cd/m²", description: "candela por metro cuadrado", service: false },
  { id: 21, symbol: "Cm", description: "Comisiones", service: true },
  { id: 22, symbol: "cm", description: "centímetro", service: false },
  { id: 23, symbol: "Cu", description: "cuartillos de café", service: false },
  { id: 24, symbol: "D", description: "día", service: false },
  { id: 25, symbol: "eV", description: "electronvolt", service: false },
  { id: 26, symbol: "F", description: "farad", service: false },
  { id: 27, symbol: "F/m", description: "farad por metro", service: false },
  { id: 28, symbol: "Fa", description: "fanega de café", service: false },
  { id: 29, symbol: "G", description: "Gramo", service: false },
  { id: 30, symbol: "Gal", description: "Galón", service: false },
  { id: 31, symbol: "Gy", description: "gray", service: false },
  { id: 32, symbol: "Gy/s", description: "gray por segundo", service: false },
  { id: 33, symbol: "h", description: "hora", service: false },
  { id: 34, symbol: "H", description: "henry", service: false },
  { id: 35, symbol: "H/m", description: "henry por metro", service: false },
  { id: 36, symbol: "Hz", description: "hertz", service: false },
  { id: 37, symbol: "I", description: "Intereses", service: true },
  { id: 38, symbol: "J", description: "Joule", service: false },
  { id: 39, symbol: "J/(kg·K)", description: "joule por kilogramo kelvin", service: false },
  { id: 40, symbol: "J/(mol·K)", description: "joule por mol kelvin", service: false },
  { id: 41, symbol: "J/K", description: "joule por kelvin", service: false },
  { id: 42, symbol: "J/kg", description: "joule por kilogramo", service: false },
  { id: 43, symbol: "J/m³", description: "joule por metro cúbico", service: false },
  { id: 44, symbol: "J/mol", description: "joule por mol", service: false },
  { id: 45, symbol: "K", description: "Kelvin", service: false },
  { id: 46, symbol: "Kat", description: "katal", service: false },
  { id: 47, symbol: "kat/m³", description: "katal por metro cúbico", service: false },
  { id: 48, symbol: "Kg", description: "Kilogramo", service: false },
  { id: 49, symbol: "kg/m³", description: "kilogramo por metro cúbico", service: false },
  { id: 50, symbol: "Km", description: "Kilómetro", service: false },
  { id: 51, symbol: "Kw", description: "kilovatios", service: false },
  { id: 52, symbol: "kWh", description: "Kilovatios por hora", service: false },
  { id: 53, symbol: "L", description: "litro", service: false },
  { id: 54, symbol: "Lm", description: "lumen", service: false },
  { id: 55, symbol: "Ln", description: "pulgada", service: false },
  { id: 56, symbol: "Lx", description: "lux", service: false },
  { id: 57, symbol: "M", description: "Metro", service: false },
  { id: 58, symbol: "m/s", description: "metro por segundo", service: false },
  { id: 59, symbol: "m/s²", description: "metro por segundo cuadrado", service: false },
  { id: 60, symbol: "m²", description: "metro cuadrado", service: false },
  { id: 61, symbol: "m³", description: "metro cúbico", service: false },
  { id: 62, symbol: "Min", description: "minuto", service: false },
  { id: 63, symbol: "mL", description: "mililitro", service: false },
  { id: 64, symbol: "Mm", description: "Milímetro", service: false },
  { id: 65, symbol: "Mol", description: "Mol", service: false },
  { id: 66, symbol: "mol/m³", description: "mol por metro cúbico", service: false },
  { id: 67, symbol: "N", description: "newton", service: false },
  { id: 68, symbol: "N/m", description: "newton por metro", service: false },
  { id: 69, symbol: "N·m", description: "newton metro", service: false },
  { id: 70, symbol: "Np", description: "neper", service: false },
  { id: 71, symbol: "º", description: "grado", service: false },
  { id: 72, symbol: "Os", description: "Otro tipo de servicio", service: true },
  { id: 73, symbol: "Otros", description: "Se debe indicar la descripción de la medida a utilizar", service: false },
  { id: 74, symbol: "Oz", description: "Onzas", service: false },
  { id: 75, symbol: "Pa", description: "pascal", service: false },
  { id: 76, symbol: "Pa·s", description: "pascal segundo", service: false },
  { id: 77, symbol: "Qq", description: "Quintal", service: false },
  { id: 78, symbol: "Rad", description: "radián", service: false },
  { id: 79, symbol: "rad/s", description: "radián por segundo", service: false },
  { id: 80, symbol: "rad/s²", description: "radián por segundo cuadrado", service: false },
  { id: 81, symbol: "S", description: "Segundo", service: false },
  { id: 82, symbol: "s", description: "siemens", service: false },
  { id: 83, symbol: "Sp", description: "Servicios Profesionales", service: true },
  { id: 84, symbol: "Spe", description: "Servicios personales", service: true },
  { id: 85, symbol: "Sr", description: "estereorradián", service: false },
  { id: 86, symbol: "St", description: "Servicios técnicos", service: true },
  { id: 87, symbol: "Sv", description: "sievert", service: false },
  { id: 88, symbol: "t", description: "tesla", service: false },
  { id: 89, symbol: "T", description: "tonelada", service: false },
  { id: 90, symbol: "U", description: "unidad de masa atómica unificada", service: false },
  { id: 91, symbol: "Ua", description: "unidad astronómica", service: false },
  { id: 92, symbol: "Unid", description: "Unidad", service: false },
  { id: 93, symbol: "V", description: "volt", service: false },
  { id: 94, symbol: "V/m", description: "volt por metro", service: false },
  { id: 95, symbol: "W", description: "Watt", service: false },
  { id: 96, symbol: "W/(m·K)", description: "watt por metro kelvin", service: false },
  { id: 97, symbol: "W/(m²·sr)", description: "watt por metro cuadrado estereorradián", service: false },
  { id: 98, symbol: "W/m²", description: "watt por metro cuadrado", service: false },
  { id: 99, symbol: "W/sr", description: "watt por estereorradián", service: false },
  { id: 100, symbol: "Wb", description: "weber", service: false },
  { id: 101, symbol: "Ω", description: "ohm", service: false },
] as const satisfies readonly UnitOfMeasureRow[];

/** Item categories. */
export const categories = [
  { id: 1, name: "Bienes" },
  { id: 2, name: "Servicios" },
] as const satisfies readonly CategoryRow[];

// ───────────────────────────── Taxes ─────────────────────────────

/** Impuesto/Codigo (Nota 8). */
export const taxCodes = [
  { id: 1, code: "01", name: "Impuesto al Valor Agregado" },
  { id: 2, code: "02", name: "Impuesto Selectivo de Consumo" },
  { id: 3, code: "03", name: "Impuesto único a los combustibles" },
  { id: 4, code: "04", name: "Impuesto específico de bebidas alcohólicas" },
  { id: 5, code: "05", name: "Impuesto específico sobre las bebidas envasadas sin contenido alcohólico y jabones de tocador" },
  { id: 6, code: "06", name: "Impuesto a los productos de tabaco" },
  { id: 7, code: "07", name: "IVA (cálculo especial)" },
  { id: 8, code: "08", name: "IVA Régimen de Bienes Usados (Factor)" },
  { id: 12, code: "12", name: "Impuesto específico al cemento" },
  { id: 99, code: "99", name: "Otros" },
] as const satisfies readonly TaxCodeRow[];

/** CodigoTarifaIVA (Nota 8.1). */
export const vatRates = [
  { id: 1, code: "01", name: "Tarifa 0% (Artículo 32, num 1, RLIVA)", rate: "0.00", exempt: false, noSujeto: false, notesOnly: false },
  { id: 2, code: "02", name: "Tarifa reducida 1%", rate: "1.00", exempt: false, noSujeto: false, notesOnly: false },
  { id: 3, code: "03", name: "Tarifa reducida 2%", rate: "2.00", exempt: false, noSujeto: false, notesOnly: false },
  { id: 4, code: "04", name: "Tarifa reducida 4%", rate: "4.00", exempt: false, noSujeto: false, notesOnly: false },
  { id: 5, code: "05", name: "Transitorio 0%", rate: "0.00", exempt: false, noSujeto: false, notesOnly: true },
  { id: 6, code: "06", name: "Transitorio 4%", rate: "4.00", exempt: false, noSujeto: false, notesOnly: true },
  { id: 7, code: "07", name: "Tarifa transitoria 8%", rate: "8.00", exempt: false, noSujeto: false, notesOnly: true },
  { id: 8, code: "08", name: "Tarifa general 13%", rate: "13.00", exempt: false, noSujeto: false, notesOnly: false },
  { id: 9, code: "09", name: "Tarifa reducida 0.5%", rate: "0.50", exempt: false, noSujeto: false, notesOnly: false },
  { id: 10, code: "10", name: "Tarifa Exenta", rate: "0.00", exempt: true, noSujeto: false, notesOnly: false },
  { id: 11, code: "11", name: "Tarifa 0% sin derecho a crédito", rate: "0.00", exempt: false, noSujeto: true, notesOnly: false },
] as const satisfies readonly VatRateRow[];

/** Default rows of each company's editable "Lista de IVA" (id 1 = IVA 13%, the usual default). */
export const taxTypes = [
  { id: 1, name: "IVA 13%", rate: "13", taxCode: "01", vatCode: "08" },
  { id: 2, name: "IVA 4%", rate: "4", taxCode: "01", vatCode: "04" },
  { id: 3, name: "IVA 2%", rate: "2", taxCode: "01", vatCode: "03" },
  { id: 4, name: "IVA 1%", rate: "1", taxCode: "01", vatCode: "02" },
  { id: 5, name: "IVA 0.5%", rate: "0.5", taxCode: "01", vatCode: "09" },
  { id: 6, name: "Exento", rate: "0", taxCode: "01", vatCode: "10" },
  { id: 7, name: "No sujeto", rate: "0", taxCode: "01", vatCode: "11" },
] as const satisfies readonly TaxTypeRow[];

/** TipoTransaccion (Nota 22), optional per line. */
export const transactionTypes = [
  { id: 1, code: "01", name: "Venta normal de bienes y servicios (transacción general)" },
  { id: 2, code: "02", name: "Mercancía de autoconsumo exento" },
  { id: 3, code: "03", name: "Mercancía de autoconsumo gravado" },
  { id: 4, code: "04", name: "Servicio de autoconsumo exento" },
  { id: 5, code: "05", name: "Servicio de autoconsumo gravado" },
  { id: 6, code: "06", name: "Cuota de afiliación" },
  { id: 7, code: "07", name: "Cuota de afiliación exenta" },
  { id: 8, code: "08", name: "Bienes de capital para el emisor" },
  { id: 9, code: "09", name: "Bienes de capital para el receptor" },
  { id: 10, code: "10", name: "Bienes de capital para el emisor y el receptor" },
  { id: 11, code: "11", name: "Bienes de capital de autoconsumo exento para el emisor" },
  { id: 12, code: "12", name: "Bienes de capital sin contraprestación a terceros exento para el emisor" },
  { id: 13, code: "13", name: "Sin contraprestación a terceros" },
] as const satisfies readonly TransactionTypeRow[];

// ───────────────────────────── Payment ─────────────────────────────

/** TipoMedioPago (Nota 6). 99 needs MedioPagoOtros. */
export const paymentMethods = [
  { id: 1, code: "01", name: "Efectivo" },
  { id: 2, code: "02", name: "Tarjeta" },
  { id: 3, code: "03", name: "Cheque" },
  { id: 4, code: "04", name: "Transferencia – depósito bancario" },
  { id: 5, code: "05", name: "Recaudado por terceros" },
  { id: 6, code: "06", name: "SINPE Móvil" },
  { id: 7, code: "07", name: "Plataforma digital" },
  { id: 99, code: "99", name: "Otros" },
] as const satisfies readonly PaymentMethodRow[];

/** CondicionVenta (Nota 5). 09 and 11 are REP-only; 99 needs CondicionVentaOtros. */
export const saleConditions = [
  { id: 1, code: "01", name: "Contado", repOnly: false },
  { id: 2, code: "02", name: "Crédito", repOnly: false },
  { id: 3, code: "03", name: "Consignación", repOnly: false },
  { id: 4, code: "04", name: "Apartado", repOnly: false },
  { id: 5, code: "05", name: "Arrendamiento con opción de compra", repOnly: false },
  { id: 6, code: "06", name: "Arrendamiento en función financiera", repOnly: false },
  { id: 7, code: "07", name: "Cobro a favor de un tercero", repOnly: false },
  { id: 8, code: "08", name: "Servicios prestados al Estado a crédito", repOnly: false },
  { id: 9, code: "09", name: "Pago de servicios prestados al Estado", repOnly: true },
  { id: 10, code: "10", name: "Venta a crédito en IVA hasta 90 días (Artículo 27, LIVA)", repOnly: false },
  { id: 11, code: "11", name: "Pago de venta a crédito en IVA hasta 90 días (Artículo 27, LIVA)", repOnly: true },
  { id: 12, code: "12", name: "Venta de mercancía no nacionalizada", repOnly: false },
  { id: 13, code: "13", name: "Venta de bienes usados no contribuyente", repOnly: false },
  { id: 14, code: "14", name: "Arrendamiento operativo", repOnly: false },
  { id: 15, code: "15", name: "Arrendamiento financiero", repOnly: false },
  { id: 99, code: "99", name: "Otros", repOnly: false },
] as const satisfies readonly SaleConditionRow[];

/** Payment terms (PlazoCredito in days). */
export const paymentTerms = [
  { id: 1, name: "Contado", days: 0 },
  { id: 2, name: "8 días", days: 8 },
  { id: 3, name: "15 días", days: 15 },
  { id: 4, name: "30 días", days: 30 },
  { id: 5, name: "45 días", days: 45 },
  { id: 6, name: "60 días", days: 60 },
  { id: 7, name: "90 días", days: 90 },
] as const satisfies readonly PaymentTermRow[];

// ───────────────────────────── References (NC/ND) ─────────────────────────────

/**
 * InformacionReferencia/Codigo (Nota 9). No 03 in v4.4. 13–16 come with the 2026 revision; 17 exists only
 * in the REP schema. 99 needs CodigoReferenciaOTRO.
 * Note: the XSD documentation labels 02 "Corrige texto de documento de referencia" (left over from v4.3, where
 * 03 was "Corrige monto"); the v4.4 Anexo (NOTES §8) gives 02 = corrige monto, which is used here.
 */
export const referenceCodes = [
  { id: 1, code: "01", name: "Anula documento de referencia", repOnly: false },
  { id: 2, code: "02", name: "Corrige monto", repOnly: false },
  { id: 4, code: "04", name: "Referencia a otro documento", repOnly: false },
  { id: 5, code: "05", name: "Sustituye comprobante provisional por contingencia", repOnly: false },
  { id: 6, code: "06", name: "Devolución de mercancía", repOnly: false },
  { id: 7, code: "07", name: "Sustituye comprobante electrónico", repOnly: false },
  { id: 8, code: "08", name: "Factura endosada", repOnly: false },
  { id: 9, code: "09", name: "Nota de crédito financiera", repOnly: false },
  { id: 10, code: "10", name: "Nota de débito financiera", repOnly: false },
  { id: 11, code: "11", name: "Proveedor no domiciliado", repOnly: false },
  { id: 12, code: "12", name: "Crédito por exoneración posterior a la facturación", repOnly: false },
  { id: 13, code: "13", name: "Anula documento de referencia por error material", repOnly: false },
  { id: 14, code: "14", name: "Corrige monto por error material", repOnly: false },
  { id: 15, code: "15", name: "Sustituye comprobante electrónico por error material", repOnly: false },
  { id: 16, code: "16", name: "Sustituye comprobante electrónico rechazado", repOnly: false },
  { id: 17, code: "17", name: "Pago a comprobante electrónico", repOnly: true },
  { id: 99, code: "99", name: "Otros", repOnly: false },
] as const satisfies readonly ReferenceCodeRow[];

/** TipoDocIR (Nota 10). 19–20 come with the 2026 revision. 99 needs TipoDocRefOTRO. */
export const referenceDocumentTypes = [
  { id: 1, code: "01", name: "Factura electrónica" },
  { id: 2, code: "02", name: "Nota de débito electrónica" },
  { id: 3, code: "03", name: "Nota de crédito electrónica" },
  { id: 4, code: "04", name: "Tiquete electrónico" },
  { id: 5, code: "05", name: "Nota de despacho" },
  { id: 6, code: "06", name: "Contrato" },
  { id: 7, code: "07", name: "Procedimiento" },
  { id: 8, code: "08", name: "Comprobante emitido en contingencia" },
  { id: 9, code: "09", name: "Devolución de mercadería" },
  { id: 10, code: "10", name: "Comprobante electrónico rechazado por el Ministerio de Hacienda" },
  { id: 11, code: "11", name: "Sustituye factura rechazada por el receptor del comprobante" },
  { id: 12, code: "12", name: "Sustituye factura de exportación" },
  { id: 13, code: "13", name: "Facturación mes vencido" },
  { id: 14, code: "14", name: "Comprobante aportado por contribuyente de régimen especial" },
  { id: 15, code: "15", name: "Sustituye una factura electrónica de compra" },
  { id: 16, code: "16", name: "Comprobante de proveedor no domiciliado" },
  { id: 17, code: "17", name: "Nota de crédito a factura electrónica de compra" },
  { id: 18, code: "18", name: "Nota de débito a factura electrónica de compra" },
  { id: 19, code: "19", name: "Factura electrónica de exportación" },
  { id: 20, code: "20", name: "Recibo electrónico de pago" },
  { id: 99, code: "99", name: "Otros" },
] as const satisfies readonly ReferenceDocumentTypeRow[];

// ───────────────────────────── Discounts, other charges, exonerations ─────────────────────────────

/** CodigoDescuento (Nota 20). 99 needs CodigoDescuentoOTRO. */
export const discountCodes = [
  { id: 1, code: "01", name: "Descuento por regalía" },
  { id: 2, code: "02", name: "Descuento por regalía IVA cobrado al cliente" },
  { id: 3, code: "03", name: "Descuento por bonificación" },
  { id: 4, code: "04", name: "Descuento por volumen" },
  { id: 5, code: "05", name: "Descuento por temporada (estacional)" },
  { id: 6, code: "06", name: "Descuento promocional" },
  { id: 7, code: "07", name: "Descuento comercial" },
  { id: 8, code: "08", name: "Descuento por frecuencia" },
  { id: 9, code: "09", name: "Descuento sostenido" },
  { id: 99, code: "99", name: "Otros descuentos" },
] as const satisfies readonly DiscountCodeRow[];

/** OtrosCargos/TipoDocumentoOC (Nota 16). 99 needs TipoDocumentoOTROS. */
export const otherChargeTypes = [
  { id: 1, code: "01", name: "Contribución parafiscal" },
  { id: 2, code: "02", name: "Timbre de la Cruz Roja" },
  { id: 3, code: "03", name: "Timbre de Benemérito Cuerpo de Bomberos de Costa Rica" },
  { id: 4, code: "04", name: "Cobro de un tercero" },
  { id: 5, code: "05", name: "Costos de exportación" },
  { id: 6, code: "06", name: "Impuesto de servicio 10%" },
  { id: 7, code: "07", name: "Timbre de colegios profesionales" },
  { id: 8, code: "08", name: "Depósitos de garantía" },
  { id: 9, code: "09", name: "Multas o penalizaciones" },
  { id: 10, code: "10", name: "Intereses moratorios" },
  { id: 99, code: "99", name: "Otros cargos" },
] as const satisfies readonly OtherChargeTypeRow[];

/** Exoneracion/TipoDocumentoEX1 (Nota 10.1). 99 needs TipoDocumentoOTRO. */
export const exonerationTypes = [
  { id: 1, code: "01", name: "Compras autorizadas por la Dirección General de Tributación", notesOnly: true },
  { id: 2, code: "02", name: "Ventas exentas a diplomáticos", notesOnly: false },
  { id: 3, code: "03", name: "Autorizado por ley especial", notesOnly: false },
  { id: 4, code: "04", name: "Exenciones Dirección General de Hacienda autorización local genérica", notesOnly: false },
  {
    id: 5,
    code: "05",
    name: "Exenciones Dirección General de Hacienda Transitorio V (servicios de ingeniería, arquitectura, topografía obra civil)",
    notesOnly: true,
  },
  { id: 6, code: "06", name: "Servicios turísticos inscritos ante el Instituto Costarricense de Turismo (ICT)", notesOnly: true },
  { id: 7, code: "07", name: "Transitorio XVII (recolección, clasificación, almacenamiento de reciclaje y reutilizable)", notesOnly: true },
  { id: 8, code: "08", name: "Exoneración a zona franca", notesOnly: false },
  { id: 9, code: "09", name: "Exoneración de servicios complementarios para la exportación (artículo 11 RLIVA)", notesOnly: false },
  { id: 10, code: "10", name: "Órgano de las corporaciones municipales", notesOnly: false },
  { id: 11, code: "11", name: "Exenciones Dirección General de Hacienda autorización de impuesto local concreta", notesOnly: false },
  { id: 99, code: "99", name: "Otros", notesOnly: false },
] as const satisfies readonly ExonerationTypeRow[];

/** Exoneracion/NombreInstitucion (Nota 23), from the XSD enumeration. 99 needs NombreInstitucionOtros. */
export const exonerationInstitutions = [
  { id: 1, code: "01", name: "Ministerio de Hacienda" },
  { id: 2, code: "02", name: "Ministerio de Relaciones Exteriores y Culto" },
  { id: 3, code: "03", name: "Ministerio de Agricultura y Ganadería" },
  { id: 4, code: "04", name: "Ministerio de Economía, Industria y Comercio" },
  { id: 5, code: "05", name: "Cruz Roja Costarricense" },
  { id: 6, code: "06", name: "Benemérito Cuerpo de Bomberos de Costa Rica" },
  { id: 7, code: "07", name: "Asociación Obras del Espíritu Santo" },
  { id: 8, code: "08", name: "Federación Cruzada Nacional de Protección al Anciano (Fecrunapa)" },
  { id: 9, code: "09", name: "Escuela de Agricultura de la Región Húmeda (EARTH)" },
  { id: 10, code: "10", name: "Instituto Centroamericano de Administración de Empresas (INCAE)" },
  { id: 11, code: "11", name: "Junta de Protección Social (JPS)" },
  { id: 12, code: "12", name: "Autoridad Reguladora de los Servicios Públicos (Aresep)" },
  { id: 99, code: "99", name: "Otros" },
] as const satisfies readonly ExonerationInstitutionRow[];

// ───────────────────────────── E-mail settings ─────────────────────────────

/** Outgoing mail transports (nodemailer transport names). */
export const emailProtocols = [
  { id: 1, name: "smtp" },
  { id: 2, name: "sendmail" },
] as const satisfies readonly EmailProtocolRow[];

/** SMTP connection security. */
export const encryptions = [
  { id: 1, name: "none", description: "Ninguna" },
  { id: 2, name: "ssl", description: "SSL/TLS implícito (puerto 465)" },
  { id: 3, name: "tls", description: "STARTTLS (puerto 587)" },
] as const satisfies readonly EncryptionRow[];

// ───────────────────────────── Code unions ─────────────────────────────

export type IdentificationTypeCode = (typeof identificationTypes)[number]["code"];
export type CurrencyCode = (typeof currencies)[number]["code"];
export type CountryCode = (typeof countries)[number]["code"];
export type UnitSymbol = (typeof unitsOfMeasure)[number]["symbol"];
export type TaxCode = (typeof taxCodes)[number]["code"];
export type VatRateCode = (typeof vatRates)[number]["code"];
export type TransactionTypeCode = (typeof transactionTypes)[number]["code"];
export type PaymentMethodCode = (typeof paymentMethods)[number]["code"];
export type SaleConditionCode = (typeof saleConditions)[number]["code"];
export type ReferenceCode = (typeof referenceCodes)[number]["code"];
export type ReferenceDocumentTypeCode = (typeof referenceDocumentTypes)[number]["code"];
export type DiscountCode = (typeof discountCodes)[number]["code"];
export type OtherChargeTypeCode = (typeof otherChargeTypes)[number]["code"];
export type ExonerationTypeCode = (typeof exonerationTypes)[number]["code"];
export type ExonerationInstitutionCode = (typeof exonerationInstitutions)[number]["code"];
