import { describe, expect, it } from "vitest";
import { parseXmlTree, XmlTreeError } from "./xml-tree.ts";
import { parseXml, XmlSyntaxError } from "./xsd/parse.ts";

// Both parsers of the engine decode references with one rule (xml-entities.ts): the validator's
// parser used to accept references to characters XML 1.0 forbids (&#1;), which the reader refused.
describe("entity and character references, one rule for both parsers", () => {
  const parsers: [string, (xml: string) => unknown, new (...a: never[]) => Error][] = [
    ["xml-tree", parseXmlTree, XmlTreeError],
    ["xsd/parse", parseXml, XmlSyntaxError],
  ];
  for (const [name, parse, ErrorClass] of parsers) {
    it(`${name}: decodes the predefined entities and character references`, () => {
      expect(() => parse("<a b=\"&quot;&#x41;\">&amp;&lt;&gt;&apos;&#233;</a>")).not.toThrow();
    });
    it.each([
      ["&nbsp;", "entidad desconocida «&nbsp;»"],
      ["&amp", "referencia de entidad sin cerrar «&amp»"],
      ["&#1;", "referencia a un carácter no permitido «&#1;»"],
      ["&#xFFFE;", "referencia a un carácter no permitido «&#xFFFE;»"],
      ["&#x110000;", "referencia a un carácter no permitido «&#x110000;»"],
    ])(`${name}: refuses %s`, (text, message) => {
      expect(() => parse(`<a>${text}</a>`)).toThrow(ErrorClass);
      expect(() => parse(`<a>${text}</a>`)).toThrow(message);
    });
  }
});
