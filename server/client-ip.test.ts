import { describe, expect, it } from "vitest";
import { clientIp, parseTrustedProxies } from "./client-ip.ts";

describe("client address behind proxies (TRUSTED_PROXIES)", () => {
  const none = parseTrustedProxies(undefined);
  const proxies = parseTrustedProxies("127.0.0.1, 10.0.0.0/8 fd00::/8");

  it("without trusted proxies the socket's address is the client, whatever X-Forwarded-For says", () => {
    expect(clientIp("203.0.113.5", "1.2.3.4", none)).toBe("203.0.113.5");
    expect(clientIp("::ffff:203.0.113.5", undefined, none)).toBe("203.0.113.5");
    expect(clientIp(undefined, undefined, none)).toBe("unknown");
  });

  it("a client that is not a trusted proxy cannot choose its address with the header", () => {
    expect(clientIp("203.0.113.5", "127.0.0.1, 10.1.1.1", proxies)).toBe("203.0.113.5");
  });

  it("behind trusted proxies, the rightmost address that is not a proxy", () => {
    expect(clientIp("127.0.0.1", "198.51.100.7", proxies)).toBe("198.51.100.7");
    expect(clientIp("::ffff:10.0.0.2", "198.51.100.7, 10.9.9.9", proxies)).toBe("198.51.100.7");
    // What the client itself sent (left) is ignored once an untrusted hop is found.
    expect(clientIp("127.0.0.1", "6.6.6.6, 198.51.100.7, 10.9.9.9", proxies)).toBe("198.51.100.7");
    expect(clientIp("127.0.0.1", ["6.6.6.6, 198.51.100.7", "10.9.9.9"], proxies)).toBe("198.51.100.7");
    expect(clientIp("fd00::1", "2001:db8::5", proxies)).toBe("2001:db8::5");
  });

  it("a chain of proxies only: the leftmost proxy; garbage stops at the last real hop", () => {
    expect(clientIp("127.0.0.1", "10.0.0.5, 10.0.0.6", proxies)).toBe("10.0.0.5");
    expect(clientIp("127.0.0.1", "no-es-ip", proxies)).toBe("127.0.0.1");
  });

  it("refuses a setting that is not addresses or ranges", () => {
    expect(() => parseTrustedProxies("10.0.0.0/33")).toThrow(/TRUSTED_PROXIES/);
    expect(() => parseTrustedProxies("proxy.local")).toThrow(/TRUSTED_PROXIES/);
    expect(() => parseTrustedProxies("10.0.0.1/8/9")).toThrow(/TRUSTED_PROXIES/);
  });
});
