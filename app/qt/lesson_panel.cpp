// app/qt/lesson_panel.cpp — the lesson browser: the lessons found, or a plain "no lessons yet" state.
#include <QLabel>
#include <QListWidget>
#include <QVBoxLayout>
#include "app/lab/exercise_links.h"
#include "app/qt/panels.h"

namespace rl::qt {

LessonPanel::LessonPanel(Classroom& c, QWidget* parent) : QWidget(parent), c_(c) {
    auto* lay = new QVBoxLayout(this);
    list_ = new QListWidget(this);
    list_->setObjectName("lessonList");
    note_ = new QLabel(this);
    note_->setObjectName("lessonNote");
    note_->setWordWrap(true);
    exercises_ = new QListWidget(this);
    exercises_->setObjectName("exerciseList");
    exercises_->setMaximumHeight(90);
    lay->addWidget(list_);
    lay->addWidget(note_);
    lay->addWidget(exercises_);
    connect(exercises_, &QListWidget::itemActivated, this,
            [this](QListWidgetItem* it) { emit exerciseChosen(it->data(Qt::UserRole).toString()); });
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
    // The open lesson's exercises: double-click (or Enter) opens the kernel with its flags, to fix and save.
    exercises_->clear();
    std::vector<std::string> problems;
    const std::vector<Exercise> exs = c_.lesson.empty() ? std::vector<Exercise>{} : lab::lesson_exercises(c_.lab.lesson.lesson(), &problems);
    for (const Exercise& ex : exs) {
        auto* it = new QListWidgetItem("Exercise: " + QString::fromStdString(ex.title), exercises_);
        it->setData(Qt::UserRole, QString::fromStdString(ex.name));
        it->setToolTip(QString::fromStdString(ex.task + "\nDouble-click: open the kernel; fix it and save."));
    }
    for (const std::string& p : problems) new QListWidgetItem(QString::fromStdString(p), exercises_);
    exercises_->setVisible(exercises_->count() > 0);
}

}  // namespace rl::qt
