// The change-password page.
import { defineMessages } from "../define-messages";

export const password = defineMessages(
  {
    "password.title": "Change your password",
    "password.description": "Changing the password signs you out everywhere, this browser included.",
    "password.current": "Current password",
    "password.new": "New password (at least 10 characters)",
    "password.confirm": "New password again",
    "password.submit": "Change password",
    "password.required":
      "Your password was generated at the first start and shown on its terminal. Choose your own before using the console; the current password is the generated one.",
  },
  {
    "password.title": "修改密码",
    "password.description": "修改密码后，所有设备（包括当前浏览器）都会退出登录。",
    "password.current": "当前密码",
    "password.new": "新密码（至少 10 个字符）",
    "password.confirm": "再次输入新密码",
    "password.submit": "修改密码",
    "password.required": "您的密码是首次启动时生成并显示在终端上的。使用控制台前请先设置自己的密码；当前密码即生成的密码。",
  },
);
