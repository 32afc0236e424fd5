/**
 * The processes that started the CLI when npx or `npm run` did: the CLI stops once any of them is
 * gone. npm does not always pass a signal on, and between it and the CLI there may be a shell and
 * a loader (`npm run` here: npm, `sh -c`, tsx, then the CLI), which outlive npm: watching the
 * CLI's own parent alone left it serving after npm was stopped.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** How many processes up the CLI looks for npm. */
const MAX_DEPTH = 8;

/** A process as the chain reads it: its parent, and its command line. */
interface ProcessInfo {
  readonly ppid: number;
  readonly args: string;
}

/** `/proc/<pid>/stat` read: its state letter and its parent (after the command name, which may hold spaces and parentheses). */
function procStat(pid: number): { state: string; ppid: number } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const [state = '', ppid = ''] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { state, ppid: Number(ppid) };
  } catch {
    return undefined;
  }
}

/** A process's parent and command line: from `/proc` on Linux, else from `ps`; undefined when it cannot be read. */
function processInfo(pid: number): ProcessInfo | undefined {
  if (process.platform === 'linux') {
    const stat = procStat(pid);
    if (!stat) return undefined;
    try {
      return { ppid: stat.ppid, args: readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ') };
    } catch {
      return undefined;
    }
  }
  try {
    const line = execFileSync('ps', ['-o', 'ppid=,args=', '-p', String(pid)], { encoding: 'utf8', timeout: 2_000 });
    const text = line.trim();
    const space = text.indexOf(' ');
    const ppid = Number(text.slice(0, space));
    return space > 0 && Number.isInteger(ppid) ? { ppid, args: text.slice(space + 1).trim() } : undefined;
  } catch {
    return undefined;
  }
}

/** Whether a command line is npm's or npx's: `npm run ...` (the title npm gives itself), `node .../npm-cli.js exec ...`. */
function isNpm(args: string): boolean {
  const [program = '', script = ''] = args.split(' ');
  const name = (path: string) => path.slice(Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1);
  return /^np[mx](?:\.cmd)?$/.test(name(program)) || /^np[mx](?:-cli\.js)?$/.test(name(script));
}

/**
 * The processes from the CLI's parent up to the npm (or npx) that started it, that one included;
 * only the parent when no npm is found within {@link MAX_DEPTH} processes, or where processes
 * cannot be read (Windows).
 */
export function launcherChain(): number[] {
  const chain: number[] = [];
  let pid = process.ppid;
  for (let depth = 0; depth < MAX_DEPTH && pid > 1; depth++) {
    const info = processInfo(pid);
    if (!info) break;
    chain.push(pid);
    if (isNpm(info.args)) return chain;
    pid = info.ppid;
  }
  return [process.ppid];
}

/** Whether a process is gone: not there, or (on Linux) a zombie its parent has not reaped yet. */
export function isGone(pid: number): boolean {
  if (process.platform === 'linux') {
    const stat = procStat(pid);
    return stat === undefined || stat.state === 'Z';
  }
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    // EPERM: there, but another user's.
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}
