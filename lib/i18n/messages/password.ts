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
  },
  {
    "password.title": "修改密码",
    "password.description": "修改密码后，所有设备（包括当前浏览器）都会退出登录。",
    "password.current": "当前密码",
    "password.new": "新密码（至少 10 个字符）",
    "password.confirm": "再次输入新密码",
    "password.submit": "修改密码",
  },
);
