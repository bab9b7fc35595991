import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

/**
 * Which process owns the client end of a local TCP connection, read from Linux's /proc: the connection's
 * socket inode from /proc/net/tcp{,6} (client port -> server port), then the process with a file descriptor
 * on that socket. It lets a local provider attribute each call to the worker process that made it without
 * instrumenting the worker: the processes under test run exactly as built.
 */
export function socketOwner(clientPort: number, serverPort: number, pids: number[]): number | undefined {
  const inode = socketInode(clientPort, serverPort);
  if (!inode) return undefined;
  const link = `socket:[${inode}]`;
  for (const pid of pids) {
    let fds: string[];
    try {
      fds = readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue; // the process is gone
    }
    for (const fd of fds) {
      try {
        if (readlinkSync(`/proc/${pid}/fd/${fd}`) === link) return pid;
      } catch {
        // closed meanwhile
      }
    }
  }
  return undefined;
}

function socketInode(clientPort: number, serverPort: number): string | undefined {
  const local = `:${clientPort.toString(16).toUpperCase().padStart(4, '0')}`;
  const remote = `:${serverPort.toString(16).toUpperCase().padStart(4, '0')}`;
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text: string;
    try {
      text = readFileSync(table, 'utf8');
    } catch {
      continue;
    }
    // "sl local_address rem_address st tx_queue:rx_queue tr:tm->when retrnsmt uid timeout inode ..."
    for (const line of text.split('\n').slice(1)) {
      const f = line.trim().split(/\s+/);
      if (f.length > 9 && f[1].endsWith(local) && f[2].endsWith(remote) && f[9] !== '0') return f[9];
    }
  }
  return undefined;
}
