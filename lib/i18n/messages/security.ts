// The two-factor page.
import { defineMessages } from "../define-messages";

export const security = defineMessages(
  {
    "security.title": "Two-factor sign-in",
    "security.enabled": "Two-factor sign-in is on.",
    "security.disabledState": "Two-factor sign-in is off.",
    "security.start": "Set up an authenticator app",
    "security.secret": "Secret (enter it in your authenticator app)",
    "security.uri": "Or open this otpauth:// link on your phone",
    "security.confirmCode": "Code shown by the app",
    "security.enable": "Turn on two-factor",
    "security.disable": "Turn off two-factor",
    "security.disabledDone": "Two-factor is off.",
    "security.password": "Your password",
    "security.passwordHelp": "Changing two-factor asks for your current password.",
    "security.enabledSignIn":
      "Two-factor is on and every session of this account has ended, this one too. Store these recovery codes now (each works once, shown only this once), then sign in again with a code from the app:",
    "security.enabledOthersOut":
      "Two-factor is on; your other sessions were signed out. Store these recovery codes now; each works once and they are shown only this once:",
  },
  {
    "security.title": "两步验证登录",
    "security.enabled": "两步验证已开启。",
    "security.disabledState": "两步验证未开启。",
    "security.start": "设置验证器应用",
    "security.secret": "密钥（在验证器应用中输入）",
    "security.uri": "或在手机上打开此 otpauth:// 链接",
    "security.confirmCode": "应用显示的动态码",
    "security.enable": "开启两步验证",
    "security.disable": "关闭两步验证",
    "security.disabledDone": "两步验证已关闭。",
    "security.password": "您的密码",
    "security.passwordHelp": "更改两步验证需要输入当前密码。",
    "security.enabledSignIn":
      "两步验证已开启，此账户的所有会话（包括当前会话）均已结束。请立即保存以下恢复码（每个只能使用一次，且只显示这一次），然后使用应用中的动态码重新登录：",
    "security.enabledOthersOut": "两步验证已开启，您的其他会话已退出。请立即保存以下恢复码，每个只能使用一次，且只显示这一次：",
  },
);
