// The client's address for the app (throttling, session records): the socket's peer, or — only when
// that peer is a trusted proxy (TRUSTED_PROXIES) — the address the proxies recorded in
// X-Forwarded-For, read from the right and skipping trusted hops, so a client cannot choose it by
// sending the header itself (docs/decisions/122-sign-in-throttling.md).
import net from "node:net";

export interface TrustedProxies {
  has(address: string): boolean;
}

/** "127.0.0.1, 10.0.0.0/8 fd00::/8": addresses or CIDR ranges, IPv4 or IPv6, by commas or spaces. */
export function parseTrustedProxies(value: string | undefined): TrustedProxies {
  const list = new net.BlockList();
  for (const raw of (value ?? "").split(/[\s,]+/).filter(Boolean)) {
    const [address, bits, extra] = raw.split("/");
    const type = net.isIPv4(address) ? "ipv4" : net.isIPv6(address) ? "ipv6" : null;
    const prefix = bits === undefined ? null : /^\d{1,3}$/.test(bits) ? Number(bits) : NaN;
    if (!type || extra !== undefined || Number.isNaN(prefix) || (prefix !== null && prefix > (type === "ipv4" ? 32 : 128))) {
      throw new Error(`TRUSTED_PROXIES: «${raw}» no es una dirección IP ni un rango CIDR`);
    }
    if (prefix === null) list.addAddress(address, type);
    else list.addSubnet(address, prefix, type);
  }
  return {
    has(address) {
      const type = net.isIPv4(address) ? "ipv4" : net.isIPv6(address) ? "ipv6" : null;
      return !!type && list.check(address, type);
    },
  };
}

/** An IPv4 address written as IPv6 (::ffff:10.0.0.1) as plain IPv4; anything else as it is. */
function normalize(address: string): string {
  const a = address.trim();
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(a);
  return mapped ? mapped[1] : a;
}

export function clientIp(socketAddress: string | undefined, forwardedFor: string | string[] | undefined, trusted: TrustedProxies): string {
  let current = normalize(socketAddress ?? "") || "unknown";
  if (!forwardedFor || !trusted.has(current)) return current;
  const hops = (Array.isArray(forwardedFor) ? forwardedFor.join(",") : forwardedFor).split(",").map(normalize).filter(Boolean);
  for (let i = hops.length - 1; i >= 0; i--) {
    // A trusted proxy appends a real address; anything else stops the walk at the last known hop.
    if (!net.isIP(hops[i])) return current;
    current = hops[i];
    if (!trusted.has(current)) return current;
  }
  return current;
}

const configured = parseTrustedProxies(process.env.TRUSTED_PROXIES);

/** The client address of a request to this server (TRUSTED_PROXIES read once, at start). */
export const clientAddress = (socketAddress: string | undefined, forwardedFor: string | string[] | undefined) => clientIp(socketAddress, forwardedFor, configured);
