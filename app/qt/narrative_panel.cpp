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
    lay->addWidget(text_);
}

void NarrativePanel::set_font_px(int px) {
    QFont f = text_->font();
    f.setPixelSize(px);
    text_->setFont(f);
    text_->document()->setDefaultFont(f);
    refresh();
}

void NarrativePanel::refresh() {
    if (c_.pages.empty()) {
        text_->setMarkdown("*Nothing to show: the schedule did not run.*");
        return;
    }
    text_->document()->setMarkdown(QString::fromStdString(c_.current().markdown));
}

}  // namespace rl::qt
