// app/qt/quiz_panel.cpp — a lesson page's knowledge check: choices to pick, the teacher's reveal, the next lesson.
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>
#include "app/qt/panels.h"

namespace rl::qt {

QuizPanel::QuizPanel(Classroom& c, QWidget* parent) : QWidget(parent), c_(c) {
    setObjectName("quiz");
    auto* lay = new QVBoxLayout(this);
    lay->setContentsMargins(0, 0, 0, 0);
    auto* row = new QHBoxLayout;
    for (size_t k = 0; k < kMaxChoices; ++k) {
        auto* b = new QPushButton(QString::number(k + 1), this);
        b->setObjectName(QString("choice%1").arg(k + 1));
        b->setCheckable(true);
        b->setToolTip(QString("pick choice %1 (key %1)").arg(k + 1));
        connect(b, &QPushButton::clicked, this, [this, k] { pick(int(k)); });
        row->addWidget(b);
        choices_.push_back(b);
    }
    reveal_ = new QPushButton("Reveal the answer (R)", this);
    reveal_->setObjectName("revealAnswer");
    connect(reveal_, &QPushButton::clicked, this, &QuizPanel::reveal);
    row->addWidget(reveal_);
    row->addStretch(1);
    lay->addLayout(row);
    result_ = new QLabel(this);
    result_->setObjectName("quizResult");
    result_->setWordWrap(true);
    result_->setTextFormat(Qt::PlainText);
    lay->addWidget(result_);
    next_ = new QPushButton(this);
    next_->setObjectName("nextLesson");
    connect(next_, &QPushButton::clicked, this,
            [this] { emit nextLessonChosen(QString::fromStdString(c_.lab.lesson.next_lesson())); });
    lay->addWidget(next_);
}

void QuizPanel::refresh() {
    const lab::LessonPlayer& v = c_.lab.lesson;
    const bool on_lesson = !c_.lesson.empty() && v.active() && size_t(c_.page) < v.size();
    const PlayedStep* p = on_lesson && v.current() == size_t(c_.page) ? &v.step() : nullptr;  // go() shows the page's step
    const bool has_check = p && !p->question.empty();
    for (size_t k = 0; k < choices_.size(); ++k) {
        const bool shown = has_check && k < p->choices.size();
        choices_[k]->setVisible(shown);
        choices_[k]->setChecked(shown && v.picked == k);
        if (shown) choices_[k]->setToolTip(QString::fromStdString(p->choices[k]) + QString(" (key %1)").arg(k + 1));
    }
    reveal_->setVisible(has_check);
    reveal_->setText(has_check && p->choices.empty() ? "Show the model answer (R)" : "Reveal the answer (R)");
    QString text;
    if (has_check && !p->choices.empty()) {
        if (v.show_answer) {
            if (const std::optional<Grade> g = v.grade())
                text = QString::fromStdString(g->verdict + " " + g->explanation);
            else
                text = QString::fromStdString("The answer: " + p->answer + ". " + p->explanation);
        } else if (v.picked) {
            text = QString("Choice %1 picked. Reveal the answer when the class is ready.").arg(*v.picked + 1);
        } else {
            text = "Pick an answer: keys 1-" + QString::number(p->choices.size()) + ", or the buttons.";
        }
    } else if (has_check && v.show_answer) {
        text = QString::fromStdString("Model answer: " + p->answer);
    }
    result_->setText(text);
    result_->setVisible(!text.isEmpty());
    const bool last = on_lesson && c_.page == c_.last_page();
    const std::string& next = v.next_lesson();
    std::string next_title = next;
    for (const auto& e : v.course())
        if (e.name == next) next_title = e.title;
    next_->setText(QString::fromStdString("Next lesson: " + next_title + " ▶"));
    next_->setVisible(last && !next.empty());
    setVisible(has_check || (last && !next.empty()));
}

void QuizPanel::pick(int k) {
    lab::LessonPlayer& v = c_.lab.lesson;
    if (c_.lesson.empty() || k < 0 || !v.pick(size_t(k))) return;
    v.show_answer = false;  // a new pick waits for the reveal again
    refresh();
}

void QuizPanel::reveal() {
    if (c_.lesson.empty()) return;
    c_.lab.lesson.show_answer = true;
    refresh();
}

}  // namespace rl::qt
