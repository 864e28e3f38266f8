// app/qt/schedule_form.cpp — every SCHEDULE knob, the bug toggles and the backend; a change re-runs and redraws.
#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSpinBox>
#include "app/qt/panels.h"

namespace rl::qt {
namespace {

QStringList names_of(const char* field) {
    std::string all = allowed_values(field);
    if (auto p = all.find(" ("); p != std::string::npos) all.resize(p);
    QStringList out = QString::fromStdString(all).split('|', Qt::SkipEmptyParts);
    for (QString& s : out) s = s.trimmed();
    return out;
}

QSpinBox* spin(int lo, int hi) {
    auto* s = new QSpinBox;
    s->setRange(lo, hi);
    s->setKeyboardTracking(false);  // re-run on Enter or arrows, not on every digit
    return s;
}

}  // namespace

ScheduleForm::ScheduleForm(Classroom& c, QWidget* parent) : QWidget(parent), c_(c) {
    auto* form = new QFormLayout(this);
    backend_ = new QComboBox;
    backend_->addItems({"auto", "cpu", "cuda"});
    form->addRow("backend", backend_);
    n_ = spin(1, 1 << 30);
    block_ = spin(1, 1024);
    grid_ = spin(0, 1 << 30);
    items_ = spin(1, 1 << 20);
    seed_ = spin(0, 1 << 30);
    form->addRow("n", n_);
    form->addRow("block", block_);
    form->addRow("grid (0 auto)", grid_);
    form->addRow("items", items_);
    const std::pair<QComboBox**, const char*> combos[] = {{&assign_, "assign"}, {&warp_, "warp"},
                                                          {&block_stage_, "block-stage"}, {&grid_stage_, "grid-stage"},
                                                          {&op_, "op"},         {&type_, "type"},
                                                          {&input_, "input"}};
    for (auto [box, field] : combos) {
        *box = new QComboBox;
        (*box)->addItems(names_of(field));
        (*box)->setObjectName(field);
        form->addRow(field, *box);
        connect(*box, &QComboBox::currentIndexChanged, this, [this] { emit_edit(); });
    }
    input_->addItem("values");
    values_ = new QLineEdit;
    values_->setPlaceholderText("3,-1,4.5");
    form->addRow("values", values_);
    form->addRow("seed", seed_);
    for (QSpinBox* s : {n_, block_, grid_, items_, seed_})
        connect(s, &QSpinBox::valueChanged, this, [this] { emit_edit(); });
    connect(values_, &QLineEdit::editingFinished, this, [this] { emit_edit(); });
    connect(backend_, &QComboBox::currentIndexChanged, this, [this] { emit_edit(); });
    auto* bugs_title = new QLabel("<b>Bugs to inject</b>");
    form->addRow(bugs_title);
    for (int i = 0; i < kBugCount; ++i) {
        auto* cb = new QCheckBox(QString::fromStdString(std::string(to_string(Bug(1u << i)))));
        cb->setObjectName(cb->text());
        form->addRow(cb);
        bugs_.push_back(cb);
        connect(cb, &QCheckBox::toggled, this, [this] { emit_edit(); });
    }
    error_ = new QLabel;
    error_->setObjectName("scheduleError");
    error_->setWordWrap(true);
    error_->setStyleSheet("color: #d55e00");
    form->addRow(error_);
}

void ScheduleForm::set_error(const QString& e) { error_->setText(e); }

void ScheduleForm::load() {
    loading_ = true;
    const Schedule& s = c_.lab.schedule;
    backend_->setCurrentIndex(int(c_.lab.backend));
    n_->setValue(int(std::min<uint64_t>(s.n, 1u << 30)));
    block_->setValue(int(s.block));
    grid_->setValue(int(s.grid));
    items_->setValue(int(s.items));
    seed_->setValue(int(std::min<uint64_t>(s.input.seed, 1u << 30)));
    assign_->setCurrentText(QString::fromStdString(std::string(to_string(s.assign))));
    warp_->setCurrentText(QString::fromStdString(std::string(to_string(s.warp))));
    block_stage_->setCurrentText(QString::fromStdString(std::string(to_string(s.block_stage))));
    grid_stage_->setCurrentText(QString::fromStdString(std::string(to_string(s.grid_stage))));
    op_->setCurrentText(QString::fromStdString(std::string(to_string(s.op))));
    type_->setCurrentText(QString::fromStdString(std::string(to_string(s.type))));
    const bool vals = s.input.kind == InputKind::Values;
    input_->setCurrentText(vals ? "values" : QString::fromStdString(std::string(to_string(s.input.kind))));
    QStringList v;
    for (double x : s.input.values) v << QString::number(x);
    values_->setText(v.join(','));
    values_->setEnabled(vals);
    for (int i = 0; i < kBugCount; ++i) bugs_[size_t(i)]->setChecked(s.has(Bug(1u << i)));
    error_->clear();
    loading_ = false;
}

void ScheduleForm::emit_edit() {
    if (loading_) return;
    Schedule s;
    std::string err;
    auto set = [&](const char* f, const QString& v) {
        if (err.empty()) err = set_field(s, f, v.toStdString());
    };
    set("n", QString::number(n_->value()));
    set("block", QString::number(block_->value()));
    set("grid", QString::number(grid_->value()));
    set("items", QString::number(items_->value()));
    set("assign", assign_->currentText());
    set("warp", warp_->currentText());
    set("block-stage", block_stage_->currentText());
    set("grid-stage", grid_stage_->currentText());
    set("op", op_->currentText());
    set("type", type_->currentText());
    const bool vals = input_->currentText() == "values";
    values_->setEnabled(vals);
    if (vals) {
        if (values_->text().trimmed().isEmpty()) {
            QStringList v;
            for (int i = 1; i <= std::min(n_->value(), 16); ++i) v << QString::number(i);
            values_->setText(v.join(','));
        }
        set("input", values_->text());
        if (err.empty()) s.n = s.input.values.size();
    } else {
        set("input", input_->currentText());
        set("seed", QString::number(seed_->value()));
    }
    for (int i = 0; i < kBugCount; ++i)
        if (bugs_[size_t(i)]->isChecked()) set("bug", bugs_[size_t(i)]->text());
    if (!err.empty()) {
        error_->setText(QString::fromStdString(err));
        return;
    }
    error_->clear();
    emit scheduleEdited(s, backend_->currentIndex());
}

}  // namespace rl::qt
