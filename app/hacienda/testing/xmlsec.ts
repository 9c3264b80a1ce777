/**
 * Test helper: verifies a signed document with xmlsec1 (libxmlsec1 + OpenSSL), an implementation
 * independent of ours and of xml-crypto. A missing xmlsec1 throws: the calling test fails, it is
 * never skipped.
 *
 * Flags: --insecure skips the certificate chain (test CAs are not trusted roots; chain trust is
 * not what these tests check); --enabled-reference-uris empty,same-doc allows URI="" and "#id";
 * --id-attr registers the Id attributes of xades:SignedProperties and ds:KeyInfo (and ds:Object)
 * because there is no DTD to declare them as IDs.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface XmlsecResult {
  ok: boolean;
  /** "ok/all" from "SignedInfo References (ok/all)". */
  references: string | null;
  output: string;
}

export const XMLSEC_ARGS = [
  "--verify",
  "--insecure",
  "--enabled-reference-uris",
  "empty,same-doc",
  "--id-attr:Id",
  "http://uri.etsi.org/01903/v1.3.2#:SignedProperties",
  "--id-attr:Id",
  "http://www.w3.org/2000/09/xmldsig#:KeyInfo",
  "--id-attr:Id",
  "http://www.w3.org/2000/09/xmldsig#:Object",
];

export function xmlsecVerify(xml: string | Uint8Array): XmlsecResult {
  const dir = mkdtempSync(join(tmpdir(), "colibri-xmlsec-"));
  try {
    const file = join(dir, "doc.xml");
    writeFileSync(file, xml);
    const r = spawnSync("xmlsec1", [...XMLSEC_ARGS, file], { encoding: "utf8" });
    if (r.error) {
      throw new Error(`xmlsec1 could not run (${r.error.message}). Install it: apt-get install -y xmlsec1`);
    }
    const output = `${r.stdout}${r.stderr}`;
    return {
      ok: r.status === 0 && /^OK$/m.test(output),
      references: /SignedInfo References \(ok\/all\): (\d+\/\d+)/.exec(output)?.[1] ?? null,
      output,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
