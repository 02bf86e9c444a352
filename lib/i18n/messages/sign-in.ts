// The sign-in page and its notices.
import { defineMessages } from "../define-messages";

export const signIn = defineMessages(
  {
    "signIn.passwordChanged": "Your password was changed. Sign in with the new one.",
    "signIn.title": "Sign in to the admin console",
    "signIn.email": "E-mail",
    "signIn.password": "Password",
    "signIn.code": "Authenticator code or recovery code",
    "signIn.submit": "Sign in",
    "signIn.busy": "Signing in…",
    "signIn.error.invalid": "Wrong e-mail or password. After several failed attempts, sign-in from this network pauses for 15 minutes.",
    "signIn.error.totp_required": "Enter the code from your authenticator app (or a recovery code).",
    "signIn.error.generic": "Sign-in failed. Please try again.",
    "signIn.error.locked":
      "This account is locked after too many failed sign-ins from this network. It unlocks by itself within 15 minutes; an operator can unlock it at once on the server with: npm run cli -- admin:unlock --email <your e-mail>",
    "signIn.signedOut": "You have been signed out.",
  },
  {
    "signIn.passwordChanged": "密码已修改，请使用新密码登录。",
    "signIn.title": "登录管理后台",
    "signIn.email": "邮箱",
    "signIn.password": "密码",
    "signIn.code": "验证器动态码或恢复码",
    "signIn.submit": "登录",
    "signIn.busy": "正在登录…",
    "signIn.error.invalid": "邮箱或密码错误。多次失败后，此网络的登录将暂停 15 分钟。",
    "signIn.error.totp_required": "请输入验证器应用中的动态码（或一个恢复码）。",
    "signIn.error.generic": "登录失败，请重试。",
    "signIn.error.locked":
      "此账户因在此网络多次登录失败已被锁定，15 分钟内会自动解锁；运维人员也可在服务器上立即解锁：npm run cli -- admin:unlock --email <您的邮箱>",
    "signIn.signedOut": "您已退出登录。",
  },
);
