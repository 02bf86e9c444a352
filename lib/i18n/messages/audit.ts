// The audit log.
import { defineMessages } from "../define-messages";

export const audit = defineMessages(
  {
    "audit.title": "Audit log",
    "audit.when": "When",
    "audit.actor": "Who",
    "audit.action": "Action",
    "audit.target": "Target",
    "audit.ip": "IP",
  },
  {
    "audit.title": "审计日志",
    "audit.when": "时间",
    "audit.actor": "操作人",
    "audit.action": "操作",
    "audit.target": "对象",
    "audit.ip": "IP",
  },
);
