// Every string the page shows, in English and Simplified Chinese: X(id, english, chinese).
// The build subsets the Chinese font to the characters of THIS file, so a string shown anywhere else would
// render as '?'. Keep sentences short and plain: readers are new to GPUs. No logic here.
#pragma once

#define GG_UI_STRINGS(X)                                                                                    \
    X(AppName, "gpuguide", "gpuguide")                                                                      \
    X(Tagline, "Which GPU for your training job: will it fit, how long, what it costs",                      \
      "训练该用哪块显卡：装不装得下、要多久、花多少钱")                                                     \
    X(LanguageToggle, "中文", "English")                                                                    \
    X(LanguageToggleTip, "Switch the page to Chinese", "把页面切换为英文")                                  \
    X(WelcomeTitle, "Plan a training job before you pay for a GPU",                                          \
      "在为显卡花钱之前，先把训练任务算清楚")                                                               \
    X(WelcomeBody,                                                                                          \
      "Describe the model you want to train and how. gpuguide works out how much GPU memory it needs, "     \
      "which cards and cloud offers can run it, how long it will take and what renting or buying costs. "   \
      "Every number comes with its formula and its source.",                                                \
      "描述你要训练的模型和训练方式，gpuguide 会算出需要多少显存、哪些显卡和云服务器跑得动、"             \
      "需要训练多久，以及租用或购买各要花多少钱。每个数字都附有公式和出处。")                            \
    X(QuestionsTitle, "Questions it answers", "它能回答的问题")                                            \
    X(QuestionFit, "Will my job fit in this card's memory?", "我的训练任务能装进这块显卡的显存吗？")       \
    X(QuestionWhich, "Which cards and cloud offers can run it?", "哪些显卡和云服务器能跑？")               \
    X(QuestionTime, "How long will training take?", "训练需要多长时间？")                                   \
    X(QuestionCost, "What does it cost to rent, and to buy?", "租用和购买分别要花多少钱？")                \
    X(QuestionChange, "What should I change so it fits what I can afford?",                                  \
      "要改哪些设置，才能在我负担得起的显卡上跑起来？")                                                     \
    X(PrivacyNote, "Everything is computed in your browser. Nothing you enter leaves this page.",           \
      "所有计算都在你的浏览器里完成，你输入的内容不会离开本页面。")                                         \
    X(CatalogSummary, "Catalog: %d GPUs, %d cloud offers from %d providers.",                                \
      "数据库：%d 款显卡，%d 个云服务器报价，来自 %d 家服务商。")                                          \
    X(CatalogEmpty, "The GPU catalog is not available in this build.", "此版本没有内置显卡数据库。")       \
    X(Version, "Version %s", "版本 %s")

namespace gg::ui {
enum class Str {
#define GG_UI_STRING_ENUM(id, en, zh) id,
    GG_UI_STRINGS(GG_UI_STRING_ENUM)
#undef GG_UI_STRING_ENUM
        Count
};
}  // namespace gg::ui
