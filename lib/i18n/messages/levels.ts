// Member levels and their SKU prices (issue 12.4).
import { defineMessages } from "../define-messages";

export const levels = defineMessages(
  {
    "levels.nav": "Member levels",
    "levels.title": "Member levels",
    "levels.description":
      "A buyer at a level pays that level's price for a SKU when one is set, else the SKU's price. Set level prices on a product's SKU form.",
    "levels.slug": "Slug",
    "levels.slugHelp":
      "Lowercase letters, digits and '-'. Used in catalogue files (the level prices column) and the CLI; it cannot be changed.",
    "levels.nameEn": "Name (English)",
    "levels.nameZh": "Name (Chinese)",
    "levels.create": "Add a level",
    "levels.created": "Level added.",
    "levels.rename": "Rename",
    "levels.renameTitle": "Rename {slug}",
    "levels.renamed": "Level renamed.",
    "levels.default": "default",
    "levels.users": "Buyers",
    "levels.skuPrices": "SKU prices",
    "levels.priceTitle": "Member-level prices",
    "levels.priceHelp": "Blank: this level pays the SKU's price.",
  },
  {
    "levels.nav": "会员等级",
    "levels.title": "会员等级",
    "levels.description": "某等级的买家购买设置了该等级价格的 SKU 时按等级价计价，否则按 SKU 价格。等级价格在商品的 SKU 表单中设置。",
    "levels.slug": "标识",
    "levels.slugHelp": "小写字母、数字和 '-'。用于商品目录文件（会员价列）和命令行，创建后不能修改。",
    "levels.nameEn": "名称（英文）",
    "levels.nameZh": "名称（中文）",
    "levels.create": "添加等级",
    "levels.created": "等级已添加。",
    "levels.rename": "重命名",
    "levels.renameTitle": "重命名 {slug}",
    "levels.renamed": "等级已重命名。",
    "levels.default": "默认",
    "levels.users": "买家数",
    "levels.skuPrices": "SKU 价格数",
    "levels.priceTitle": "会员等级价格",
    "levels.priceHelp": "留空：该等级按 SKU 价格购买。",
  },
);
