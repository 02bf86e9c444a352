// Texts of the password page and sign-in notices (spread into messages.ts).
// The Chinese table must have exactly the English keys (the type enforces it).

export const authEn = {
  "nav.password": "Password",
  "password.title": "Change your password",
  "password.description": "Changing the password signs you out everywhere, this browser included.",
  "password.current": "Current password",
  "password.new": "New password (at least 10 characters)",
  "password.confirm": "New password again",
  "password.submit": "Change password",
  "signIn.passwordChanged": "Your password was changed. Sign in with the new one.",
};

export const authZhCN: Record<keyof typeof authEn, string> = {
  "nav.password": "密码",
  "password.title": "修改密码",
  "password.description": "修改密码后，所有设备（包括当前浏览器）都会退出登录。",
  "password.current": "当前密码",
  "password.new": "新密码（至少 10 个字符）",
  "password.confirm": "再次输入新密码",
  "password.submit": "修改密码",
  "signIn.passwordChanged": "密码已修改，请使用新密码登录。",
};
