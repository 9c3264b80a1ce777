/**
 * Translates an XML Schema regular expression (XSD 1.0 Appendix F) into an anchored JS RegExp
 * (unicode mode). XSD patterns are implicitly anchored; `^` and `$` are ordinary characters;
 * `\d` is any Unicode decimal digit; `\w` is every character outside categories P, Z and C;
 * `.` is anything but \n and \r. Character-class subtraction and \i / \c are not supported
 * (no Hacienda schema uses them) and throw, so an unsupported pattern never validates loosely.
 */
const W = "\\p{L}\\p{M}\\p{N}\\p{S}";

export function translateXsdPattern(src: string): RegExp {
  let out = "";
  let inClass = false;
  for (let i = 0; i < src.length; i++) {
    const ch = src[i];
    if (ch === "\\") {
      const n = src[++i];
      if (n === undefined) throw new Error(`XSD pattern ends with "\\": ${src}`);
      switch (n) {
        case "d":
          out += inClass ? "\\p{Nd}" : "\\p{Nd}";
          break;
        case "D":
          if (inClass) throw new Error(`XSD pattern: \\D inside a class is not supported: ${src}`);
          out += "\\P{Nd}";
          break;
        case "w":
          out += inClass ? W : `[${W}]`;
          break;
        case "W":
          if (inClass) throw new Error(`XSD pattern: \\W inside a class is not supported: ${src}`);
          out += `[^${W}]`;
          break;
        case "s":
          out += inClass ? " \\t\\n\\r" : "[ \\t\\n\\r]";
          break;
        case "S":
          if (inClass) throw new Error(`XSD pattern: \\S inside a class is not supported: ${src}`);
          out += "[^ \\t\\n\\r]";
          break;
        case "i":
        case "I":
        case "c":
        case "C":
          throw new Error(`XSD pattern: \\${n} is not supported: ${src}`);
        case "p":
        case "P": {
          const close = src.indexOf("}", i);
          out += `\\${n}${src.slice(i + 1, close + 1)}`;
          i = close;
          break;
        }
        case "n":
          out += "\\n";
          break;
        case "r":
          out += "\\r";
          break;
        case "t":
          out += "\\t";
          break;
        default:
          // Escaped metacharacter: \. \- \^ \? \* \+ \{ \} \( \) \[ \] \| \\
          out += "\\" + n;
      }
      continue;
    }
    if (inClass) {
      if (ch === "]") inClass = false;
      else if (ch === "-" && src[i + 1] === "[") throw new Error(`XSD pattern: class subtraction is not supported: ${src}`);
      else if (ch === "[") throw new Error(`XSD pattern: nested class is not supported: ${src}`);
      out += ch;
      continue;
    }
    switch (ch) {
      case "[":
        inClass = true;
        out += "[";
        if (src[i + 1] === "^") {
          out += "^";
          i++;
        }
        break;
      case ".":
        out += "[^\\n\\r]";
        break;
      case "^":
      case "$":
      case "/":
        out += "\\" + ch;
        break;
      default:
        out += ch;
    }
  }
  if (inClass) throw new Error(`XSD pattern: unclosed class: ${src}`);
  return new RegExp(`^(?:${out})$`, "u");
}
