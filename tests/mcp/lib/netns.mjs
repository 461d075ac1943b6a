// Network namespaces for black-box tests that must cross a real network: a private "LAN" made
// of one bridge inside a gateway namespace, with a veth pair per host namespace (and one for
// the test process itself, in the root namespace), on a 10.x.y.0/24 picked from the test's pid.
// Nothing is reachable from outside, and `down()` deletes every namespace and link it made.
// Needs root (CI runs as root) and iproute2.
import { execFileSync, spawn } from "node:child_process";

function ip(...args) {
  return execFileSync("ip", args, { stdio: ["ignore", "pipe", "pipe"] }).toString();
}

/**
 * Builds the LAN: namespace `<tag>g` holding bridge br0 at .1 (the gateway's address), and
 * for each name in `hosts` a namespace `<tag><name>` at .2, .3, ...; the test process gets .254
 * through its own veth. Returns { gatewayIp, hosts: {name: {ns, ip, link}}, spawnIn(ns, cmd,
 * args, opts), down() }.
 */
export function makeLan(hosts) {
  const tag = `cx${process.pid % 100000}`;
  const net = `10.${200 + (process.pid % 50)}.${process.pid % 250}`;
  const gwNs = `${tag}g`;
  const made = { namespaces: [], rootLinks: [] };
  const lan = {
    gatewayNs: gwNs,
    gatewayIp: `${net}.1`,
    clientIp: `${net}.254`,
    hosts: {},
    down() {
      for (const l of made.rootLinks) {
        try {
          ip("link", "del", l);
        } catch {}
      }
      for (const ns of made.namespaces) {
        try {
          ip("netns", "del", ns);
        } catch {}
      }
    },
    /** Starts `cmd args` inside namespace `ns` (`ip netns exec` execs it: the child's pid is the command's). */
    spawnIn(ns, cmd, args, opts = {}) {
      return spawn("ip", ["netns", "exec", ns, cmd, ...args], opts);
    },
  };
  try {
    ip("netns", "add", gwNs);
    made.namespaces.push(gwNs);
    ip("-n", gwNs, "link", "set", "lo", "up");
    ip("-n", gwNs, "link", "add", "br0", "type", "bridge");
    ip("-n", gwNs, "addr", "add", `${lan.gatewayIp}/24`, "dev", "br0");
    ip("-n", gwNs, "link", "set", "br0", "up");
    const attach = (short, targetNs, address) => {
      const outer = `${tag}${short}b`;
      const inner = `${tag}${short}h`;
      ip("link", "add", outer, "type", "veth", "peer", "name", inner);
      made.rootLinks.push(outer, inner);
      ip("link", "set", outer, "netns", gwNs);
      ip("-n", gwNs, "link", "set", outer, "master", "br0");
      ip("-n", gwNs, "link", "set", outer, "up");
      if (targetNs) {
        ip("link", "set", inner, "netns", targetNs);
        ip("-n", targetNs, "addr", "add", `${address}/24`, "dev", inner);
        ip("-n", targetNs, "link", "set", inner, "up");
      } else {
        ip("addr", "add", `${address}/24`, "dev", inner);
        ip("link", "set", inner, "up");
      }
      return inner;
    };
    hosts.forEach((name, i) => {
      const ns = `${tag}${name}`;
      ip("netns", "add", ns);
      made.namespaces.push(ns);
      ip("-n", ns, "link", "set", "lo", "up");
      const address = `${net}.${i + 2}`;
      const link = attach(String(i), ns, address);
      lan.hosts[name] = { ns, ip: address, link };
    });
    attach("t", null, lan.clientIp);
  } catch (e) {
    lan.down();
    throw e;
  }
  return lan;
}
