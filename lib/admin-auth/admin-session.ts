/**
 * The signed-in administrator as services see it. Its own file, free of
 * next-auth and next/navigation, so a service that takes a session
 * (lib/admins/change-own-password.ts) does not reach the console's framework
 * (issue 23; the structure test checks it).
 */
export interface AdminSession {
  id: number;
  email: string;
  ip: string | null;
}
