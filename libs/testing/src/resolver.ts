/**
 * A DNS resolver for SSRF specs (the `resolve` of libs/common's AddressGuard) that answers each lookup with the next
 * address of `answers`, the last one repeating, and records the names asked: so a spec can make a name resolve
 * to a public address when it is checked and to a private one when the connection is made (DNS rebinding).
 */
export function scriptedResolver(answers: string[]) {
  const asked: string[] = [];
  const resolve = async (host: string) => {
    asked.push(host);
    const address = answers[Math.min(asked.length, answers.length) - 1];
    return [{ address, family: address.includes(':') ? 6 : 4 }];
  };
  return Object.assign(resolve, { asked });
}
