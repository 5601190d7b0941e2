/** Whether a process of this host is alive: signal 0 checks without sending anything. EPERM: it exists, it is just not ours. */
export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
