// A process and every process below it, read from /proc: CPU time and resident memory of each.
import fs from 'node:fs';

/**
 * The processes of the tree rooted at `root` (itself included), each with its CPU time in clock
 * ticks (user and system) and its resident memory in MB.
 */
export function processTree(root) {
  const parents = new Map();
  const stats = new Map();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      // pid (comm) state ppid …; comm may hold spaces and parentheses, so the fields are read after
      // the last ')': index 0 is field 3 (state), so utime, stime and rss (fields 14, 15, 24) are 11, 12, 21.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const pid = Number(entry);
      parents.set(pid, Number(fields[1]));
      stats.set(pid, { pid, ticks: Number(fields[11]) + Number(fields[12]), rssMb: (Number(fields[21]) * 4096) / 2 ** 20 });
    } catch {
      // the process ended while being read
    }
  }
  const tree = [];
  for (const [pid, s] of stats) {
    for (let p = pid; p !== undefined && p > 0; p = parents.get(p)) {
      if (p === root) {
        tree.push(s);
        break;
      }
      if (p === 1) break;
    }
  }
  return tree;
}
