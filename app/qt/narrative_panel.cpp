// app/qt/narrative_panel.cpp — the current step's narrative as Markdown in a QTextBrowser.
#include <QTextBrowser>
#include <QVBoxLayout>
#include "app/qt/panels.h"

namespace rl::qt {

NarrativePanel::NarrativePanel(Classroom& c, QWidget* parent) : QWidget(parent), c_(c) {
    auto* lay = new QVBoxLayout(this);
    lay->setContentsMargins(4, 4, 4, 4);
    text_ = new QTextBrowser(this);
    text_->setObjectName("narrative");
    text_->setOpenExternalLinks(true);
    lay->addWidget(text_, 1);
    quiz_ = new QuizPanel(c, this);
    lay->addWidget(quiz_);
}

void NarrativePanel::set_font_px(int px) {
    QFont f = text_->font();
    f.setPixelSize(px);
    text_->setFont(f);
    text_->document()->setDefaultFont(f);
    quiz_->setFont(f);
    refresh();
}

void NarrativePanel::refresh() {
    if (c_.pages.empty()) {
        text_->setMarkdown("*Nothing to show: the schedule did not run.*");
        quiz_->refresh();
        return;
    }
    text_->document()->setMarkdown(QString::fromStdString(c_.current().markdown));
    quiz_->refresh();
}

}  // namespace rl::qt
