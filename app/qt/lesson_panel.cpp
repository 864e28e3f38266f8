// app/qt/lesson_panel.cpp — the lesson browser: the lessons found, or a plain "no lessons yet" state.
#include <QLabel>
#include <QListWidget>
#include <QVBoxLayout>
#include "app/qt/panels.h"

namespace rl::qt {

LessonPanel::LessonPanel(Classroom& c, QWidget* parent) : QWidget(parent), c_(c) {
    auto* lay = new QVBoxLayout(this);
    list_ = new QListWidget(this);
    list_->setObjectName("lessonList");
    note_ = new QLabel(this);
    note_->setObjectName("lessonNote");
    note_->setWordWrap(true);
    lay->addWidget(list_);
    lay->addWidget(note_);
    connect(list_, &QListWidget::itemActivated, this,
            [this](QListWidgetItem* it) { emit lessonChosen(it->data(Qt::UserRole).toString()); });
    connect(list_, &QListWidget::itemClicked, this,
            [this](QListWidgetItem* it) { emit lessonChosen(it->data(Qt::UserRole).toString()); });
}

void LessonPanel::refresh() {
    list_->clear();
    int number = 0;
    for (const LessonInfo& l : c_.lessons) {  // in course order (lessons/course.txt), numbered
        const std::string shown = std::to_string(++number) + ". " + (l.title.empty() ? l.name : l.title);
        auto* it = new QListWidgetItem(QString::fromStdString(shown), list_);
        it->setData(Qt::UserRole, QString::fromStdString(l.name));
        it->setToolTip(QString::fromStdString(l.summary));
        if (l.name == c_.lesson) list_->setCurrentItem(it);
    }
    list_->setVisible(!c_.lessons.empty());
    note_->setText(QString::fromStdString(c_.lessons_note));
    note_->setVisible(!c_.lessons_note.empty());
}

}  // namespace rl::qt
