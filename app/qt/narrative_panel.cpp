// app/qt/narrative_panel.cpp — the current step's narrative as Markdown in a QTextBrowser, and that step's costs.
#include <QLabel>
#include <QTextBrowser>
#include <QVBoxLayout>
#include "app/lab/step_costs.h"
#include "app/qt/panels.h"

namespace rl::qt {

NarrativePanel::NarrativePanel(Classroom& c, QWidget* parent) : QWidget(parent), c_(c) {
    auto* lay = new QVBoxLayout(this);
    lay->setContentsMargins(4, 4, 4, 4);
    text_ = new QTextBrowser(this);
    text_->setObjectName("narrative");
    text_->setOpenExternalLinks(true);
    lay->addWidget(text_, 1);
    costs_ = new QLabel(this);  // beside the animation: read from the report computed once per trace (docs/costs.md)
    costs_->setObjectName("stepCosts");
    costs_->setWordWrap(true);
    lay->addWidget(costs_);
    quiz_ = new QuizPanel(c, this);
    lay->addWidget(quiz_);
}

void NarrativePanel::set_font_px(int px) {
    QFont f = text_->font();
    f.setPixelSize(px);
    text_->setFont(f);
    text_->document()->setDefaultFont(f);
    costs_->setFont(f);
    quiz_->setFont(f);
    refresh();
}

void NarrativePanel::refresh() {
    QStringList costs;
    for (const std::string& l : lab::step_cost_lines(c_.lab.costs, c_.lab.cursor.step)) costs << QString::fromStdString(l);
    costs_->setText(costs.isEmpty() ? QString() : "This step's costs\n" + costs.join("\n"));
    costs_->setVisible(!costs.isEmpty());
    if (c_.pages.empty()) {
        text_->setMarkdown("*Nothing to show: the schedule did not run.*");
        quiz_->refresh();
        return;
    }
    text_->document()->setMarkdown(QString::fromStdString(c_.current().markdown));
    quiz_->refresh();
}

}  // namespace rl::qt
